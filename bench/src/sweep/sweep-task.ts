import type { BankSettings } from '../bank/bank-settings';

/** giro's SweepService, or the limit: a raw get-movement loop with one raw update per query. */
export type SweepSystem = 'giro' | 'limit';

export interface SweepTask {
  system: SweepSystem;
  bank: BankSettings;
  /** `sqlite:<file>` or `postgres://…` (the limit runs on SQLite only). */
  databaseUrl: string;
  /** Queries in flight at most (giro: its bank budget and sweep concurrency). */
  inFlight: number;
  /** Stop after this long instead of draining the backlog. */
  timeLimitMs?: number;
}

export interface SweepResult {
  /** get-movement queries answered and written. */
  queried: number;
  errors: number;
  /** From the first claim (or read) until the sweep ended. */
  durationMs: number;
}
