// Whether an error means the database cannot be reached or cannot take writes for now (restarting, cut off,
// locked by another process, out of disk), as opposed to a bug or a refused statement: what a caller answers
// with 503 and Retry-After, and a worker waits out. TypeORM wraps the driver's error (`driverError`).

/** Node's socket errors, and pg-pool's own messages for a pool that cannot connect. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
]);
const PG_MESSAGES = [
  /Connection terminated/i,
  /timeout exceeded when trying to connect/i,
  /Client has encountered a connection error/i,
  /Connection ended unexpectedly/i,
];

/**
 * Postgres SQLSTATEs: class 08 (connection exception), 57P01–57P03 (the server shutting down or starting up),
 * 53300 (too many connections), 53100 (disk full).
 */
function isUnavailableSqlState(code: string): boolean {
  return code.startsWith('08') || ['57P01', '57P02', '57P03', '53300', '53100'].includes(code);
}

/** SQLite (better-sqlite3 codes): locked by another process past busy_timeout, disk full, I/O, cannot open. */
function isUnavailableSqliteCode(code: string): boolean {
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

export function isDatabaseUnavailable(error: unknown): boolean {
  for (let current = error, depth = 0; current && typeof current === 'object' && depth < 4; depth++) {
    const { code, message } = current as { code?: unknown; message?: unknown };
    if (typeof code === 'string') {
      if (NETWORK_CODES.has(code) || isUnavailableSqliteCode(code)) return true;
      if (/^[0-9A-Z]{5}$/.test(code) && isUnavailableSqlState(code)) return true;
    }
    if (typeof message === 'string' && PG_MESSAGES.some((pattern) => pattern.test(message))) return true;
    const next = current as { driverError?: unknown; cause?: unknown };
    current = next.driverError ?? next.cause;
  }
  return false;
}
