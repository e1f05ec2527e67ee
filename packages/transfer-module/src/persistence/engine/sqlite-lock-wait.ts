import { setTimeout as sleep } from 'node:timers/promises';

/** What giro needs of a better-sqlite3 connection to change how long it waits for a lock. */
export interface SqliteBusyTimeout {
  pragma(source: string, options?: { simple: boolean }): unknown;
}

/** The longest pause between two tries of the write lock. */
export const MAX_LOCK_PAUSE_MS = 50;

/** The time a lock wait reads and the pauses it takes (a spec gives a fake one). */
export interface LockWaitClock {
  /** Milliseconds, monotonic. */
  now(): number;
  sleep(ms: number): Promise<unknown>;
}

const monotonicClock: LockWaitClock = { now: () => performance.now(), sleep: (ms) => sleep(ms) };

/**
 * Takes SQLite's write lock (BEGIN IMMEDIATE) without stopping the process while another process holds it.
 *
 * better-sqlite3 waits for a lock synchronously (busy_timeout, 5 s by default): the whole process stops for that
 * long — no request is read, no health answered — and the HTTP server, once it runs again, answers 408 to the
 * requests whose headers were due meanwhile (its headers timeout is 5 s too). So the lock is tried with
 * busy_timeout 0, and while SQLITE_BUSY, tried again after a pause (1, 2, 4… up to 50 ms) on the event loop,
 * until the connection's busy_timeout has passed; then SQLITE_BUSY is the caller's (503). Once that has happened,
 * the file is known to be held for long: later groups try once and fail at once, until one gets the lock, so the
 * queued writes are answered 503 at once instead of each waiting its turn. A failed BEGIN did nothing: no
 * transaction is open, no work has run, nothing is lost or half-written.
 */
export class SqliteLockWait {
  private lockedOut = false;
  /** The connection's own busy_timeout, read once per connection (statements outside groups still use it). */
  private configured: { connection: SqliteBusyTimeout; busyTimeoutMs: number } | undefined;

  constructor(private readonly clock: LockWaitClock = monotonicClock) {}

  async begin(connection: SqliteBusyTimeout, beginImmediate: () => Promise<unknown>): Promise<void> {
    const busyTimeoutMs = this.busyTimeoutOf(connection);
    const deadline = this.clock.now() + (this.lockedOut ? 0 : busyTimeoutMs);
    connection.pragma('busy_timeout = 0');
    try {
      for (let pauseMs = 1; ; pauseMs = Math.min(2 * pauseMs, MAX_LOCK_PAUSE_MS)) {
        try {
          await beginImmediate();
          this.lockedOut = false;
          return;
        } catch (error) {
          const left = deadline - this.clock.now();
          if (!isBusy(error)) throw error;
          if (left <= 0) {
            this.lockedOut = true;
            throw error;
          }
          await this.clock.sleep(Math.min(pauseMs, left));
        }
      }
    } finally {
      connection.pragma(`busy_timeout = ${busyTimeoutMs}`);
    }
  }

  /** Whether the last try ran out of time: the next one does not wait. */
  get heldElsewhere(): boolean {
    return this.lockedOut;
  }

  private busyTimeoutOf(connection: SqliteBusyTimeout): number {
    if (this.configured?.connection !== connection) {
      // A number SQLite itself reports: safe to write back into the pragma.
      const busyTimeoutMs = Math.max(0, Math.trunc(Number(connection.pragma('busy_timeout', { simple: true }))));
      this.configured = { connection, busyTimeoutMs };
    }
    return this.configured.busyTimeoutMs;
  }
}

/** SQLITE_BUSY or one of its extended codes, on the error or the driver error TypeORM wraps. */
function isBusy(error: unknown): boolean {
  const { code, driverError } = (error ?? {}) as { code?: unknown; driverError?: { code?: unknown } };
  const busy = (value: unknown) => typeof value === 'string' && /^SQLITE_BUSY(_|$)/.test(value);
  return busy(code) || busy(driverError?.code);
}
