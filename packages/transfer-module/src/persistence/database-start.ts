import { setTimeout as sleep } from 'node:timers/promises';
import { DataSource, type DataSourceOptions } from 'typeorm';
import { isDatabaseUnavailable } from './database-unavailable';
import { engineCapabilitiesOf } from './engine/engine-adapter';

/** How long giro waits at start for a Postgres server that cannot be reached yet, unless told otherwise. */
export const DEFAULT_DATABASE_START_TIMEOUT_MS = 60_000;

const FIRST_RETRY_MS = 250;
const LONGEST_RETRY_MS = 5_000;

export interface DatabaseStartOptions {
  /** How long to keep trying while the database cannot be reached; 0 fails at the first refusal. */
  timeoutMs: number;
  /** Told once when the wait starts, and once when the database answers (never per attempt). */
  notify?: (message: string) => void;
}

/**
 * The database could not be opened at start: it refused giro (`waitedMs` undefined), or did not answer within the
 * start's wait. `cause` is the last attempt's error.
 */
export class DatabaseStartError extends Error {
  override readonly name = 'DatabaseStartError';

  constructor(waitedMs: number | undefined, cause: unknown) {
    super(
      waitedMs === undefined
        ? `the database cannot be opened: ${describe(cause)}`
        : `the database did not answer within ${seconds(waitedMs)} s (${describe(cause)})`,
      { cause },
    );
  }
}

/**
 * An initialized data source. A database server (waitsForServerAtStart: Postgres) that cannot be reached yet (refusing connections, starting up,
 * its name not resolving yet: isDatabaseUnavailable) is tried again, waiting longer each time up to 5 s, for at
 * most `timeoutMs`: in a deployment, giro may well start before its database. Any other failure (a wrong
 * password, a database that does not exist) is thrown at once, and so is every failure to open a SQLite file,
 * which waiting would not mend. Every failure is a DatabaseStartError, its cause the driver's error.
 */
export async function initializeWhenReachable(
  options: DataSourceOptions,
  start: DatabaseStartOptions,
): Promise<DataSource> {
  const startedMs = Date.now();
  let delayMs = FIRST_RETRY_MS;
  let waiting = false;
  for (;;) {
    try {
      const dataSource = await new DataSource(options).initialize();
      if (waiting) start.notify?.(`the database answers, after ${seconds(Date.now() - startedMs)} s`);
      return dataSource;
    } catch (error) {
      const waitable = engineCapabilitiesOf(options)?.waitsForServerAtStart === true && isDatabaseUnavailable(error);
      if (!waitable || start.timeoutMs === 0) throw new DatabaseStartError(undefined, error);
      const waitedMs = Date.now() - startedMs;
      if (waitedMs >= start.timeoutMs) throw new DatabaseStartError(waitedMs, error);
      if (!waiting) {
        start.notify?.(
          `the database cannot be reached (${describe(error)}): trying again for up to ${seconds(start.timeoutMs)} s`,
        );
        waiting = true;
      }
      // The last attempt is made at the deadline.
      await sleep(Math.min(delayMs, start.timeoutMs - waitedMs));
      delayMs = Math.min(delayMs * 2, LONGEST_RETRY_MS);
    }
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function seconds(ms: number): string {
  return (ms / 1000).toFixed(ms < 10_000 ? 1 : 0);
}
