/**
 * SQLite (better-sqlite3's codes) cannot take the statement for now: the file locked by another process past
 * busy_timeout, the disk full, an I/O error, the file that cannot be opened.
 */
export function isSqliteUnavailable(failure: { code?: unknown }): boolean {
  const { code } = failure;
  if (typeof code !== 'string') return false;
  return (
    code === 'SQLITE_BUSY' ||
    code.startsWith('SQLITE_BUSY_') ||
    code === 'SQLITE_LOCKED' ||
    code === 'SQLITE_FULL' ||
    code === 'SQLITE_CANTOPEN' ||
    code === 'SQLITE_IOERR' ||
    code.startsWith('SQLITE_IOERR_')
  );
}
