import { isPostgresUnavailable } from './engine/postgres-unavailable';
import { isSqliteUnavailable } from './engine/sqlite-unavailable';

// Whether an error means the database cannot be reached or cannot take writes for now (restarting, cut off,
// locked by another process, out of disk), as opposed to a bug or a refused statement: what a caller answers
// with 503 and Retry-After, and a worker waits out. TypeORM wraps the driver's error (`driverError`). Each
// engine says which of its errors mean that (engine/); an error is asked of both, since it carries no engine.

export function isDatabaseUnavailable(error: unknown): boolean {
  for (let current = error, depth = 0; current && typeof current === 'object' && depth < 4; depth++) {
    const failure = current as { code?: unknown; message?: unknown };
    if (isSqliteUnavailable(failure) || isPostgresUnavailable(failure)) return true;
    const next = current as { driverError?: unknown; cause?: unknown };
    current = next.driverError ?? next.cause;
  }
  return false;
}
