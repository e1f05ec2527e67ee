import type { BankSettings } from '../bank/bank-settings';

/** giro's SweepService, or the limit: a raw get-movement loop with one raw update per query. */
export type SweepSystem = 'giro' | 'limit';

export interface SweepTask {
  system: SweepSystem;
  bank: BankSettings;
  /** `sqlite:<file>` or `postgres://…` (the limit runs on SQLite only). */
  databaseUrl: string;
  /** Queries in flight at most in this process (giro: its sweep concurrency). */
  inFlight: number;
  /**
   * giro's bank budget for the whole deployment, which its live replicas share through their heartbeats
   * (default `inFlight`): `inFlight` times the processes, so that each may have `inFlight` queries in flight.
   */
  deploymentInFlight?: number;
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
