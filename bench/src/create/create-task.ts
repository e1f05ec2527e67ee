import type { BankSettings } from '../bank/bank-settings';

/**
 * The ways of creating a transfer that are compared: on SQLite giro, the limit and the naive peer; on Postgres
 * giro and `raw-pg`, the least a pg + undici client does.
 */
export type CreateSystem = 'giro' | 'limit' | 'peer' | 'raw-pg';

export interface CreateTask {
  system: CreateSystem;
  bank: BankSettings;
  /** A fresh SQLite file for this run (not opened when `postgresUrl` is set). */
  databaseFile: string;
  /** Postgres instead of the SQLite file (giro and raw-pg): the database all processes of the run share. */
  postgresUrl?: string;
  /** giro's bank budget for the whole deployment, shared by its live replicas (default `maxConnections`). */
  deploymentInFlight?: number;
  concurrency: number;
  /** Transfers sent before measuring (connections opened, code compiled), at least 16 at once. */
  warmup: number;
  transfers: number;
  /** Where the limit and the peer start their own originIds (giro allocates its own). */
  firstOriginId: number;
  /**
   * giro on SQLite only: start its allocator at `firstOriginId`. Workers run side by side on files of their own
   * otherwise allocate the same ids from the same clock, and the one sandbox answers the second as a repeat.
   */
  giroFromFirstOriginId?: boolean;
  /** Keep-alive connections to the bank (and giro's in-flight budget). */
  maxConnections: number;
  /**
   * giro only: the standard `OTEL_*` variables to trace with, as the reconciler does when
   * `OTEL_EXPORTER_OTLP_ENDPOINT` is set (`pnpm bench:tracing`); no tracing SDK without them.
   */
  otelEnv?: Record<string, string>;
  /**
   * With `otelEnv`: the measured transfers run in blocks of this many, traced and with tracing suppressed in
   * turn (traced, suppressed, suppressed, traced…), each block's CPU time counted for its side: what recording
   * and exporting the spans cost, measured in one process, where a busy machine weighs on both sides alike.
   */
  pairedBlock?: number;
}

export interface CreateResult {
  completed: number;
  errors: number;
  firstError?: string;
  durationMs: number;
  perSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** CPU time of the worker per measured transfer (user + system), ms. */
  cpuMsPerTransfer: number;
  /** With `pairedBlock`: the CPU time per transfer of the traced blocks and of the suppressed ones, ms. */
  paired?: { tracedCpuMsPerTransfer: number; suppressedCpuMsPerTransfer: number };
}

/** One system set up in a worker: creates transfer number `index` end to end. */
export interface CreateSystemUnderTest {
  transfer(index: number): Promise<void>;
  close(): Promise<void>;
}
