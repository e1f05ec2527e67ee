import { join } from 'node:path';
import type { BenchContext } from '../context';
import type { CreateResult, CreateSystem, CreateTask } from '../create/create-task';
import { awaitProcessedOnce } from '../create/processed-once';
import { BENCH_DATABASE, createBenchDatabase, dropBenchDatabase } from '../sweep/seed-postgres';
import { runWorkersTogether } from '../workers/run-together';
import { freshOriginIdRange } from '../workload/transfer-request';

export interface CreatePostgresPlan {
  /**
   * Transfers in flight per process (a closed loop), and the keep-alive connections each keeps; each level is a
   * set of runs. A low one keeps 4 processes below the machine's CPU, so their scaling shows what they share
   * (the database, the budget); a high one shows where the CPU runs out.
   */
  concurrencies: number[];
  warmup: number;
  /** Measured transfers per process. */
  transfers: number;
  /** The bank's round trip (the sandbox's added latency). */
  latencyMs: number;
}

export interface CreatePostgresRun {
  system: CreateSystem;
  processes: number;
  concurrencyPerProcess: number;
  completed: number;
  errors: number;
  /** All processes' measured transfers ÷ the longest measured part among them. */
  perSecond: number;
  /** The slowest process's p50 and p99, ms. */
  p50Ms: number;
  p99Ms: number;
  /** CPU of the creating processes (measured part) and of the Postgres server (whole run), ms per transfer. */
  cpuMsPerTransfer: number;
  databaseCpuMsPerTransfer: number | undefined;
  /** The part of it of the benchmark database's backends (other work on the server left out). */
  benchDatabaseCpuMsPerTransfer: number | undefined;
  /** The sandbox bank's CPU (whole run), ms per transfer: the machine's share the bank's side takes. */
  bankCpuMsPerTransfer?: number;
  machineBusy: number | undefined;
}

/** The command name of the Postgres server's processes. */
const POSTGRES_COMMAND = 'postgres';

/**
 * The create path on one Postgres database with the bank `latencyMs` away: giro (TransferService in a Nest
 * application, as in the SQLite runs) with 1 and 4 processes, whose bank budget is the deployment's and shared
 * through their heartbeats, and one raw pg + undici client doing the minimum. Each run on a fresh database.
 */
export async function runCreatePostgres(
  context: BenchContext,
  serverUrl: string,
  plan: CreatePostgresPlan,
): Promise<CreatePostgresRun[]> {
  const { control } = context.sandbox;
  const before = await control.config();
  await control.configure({ faults: { latencyMs: plan.latencyMs } });
  try {
    const runs: CreatePostgresRun[] = [];
    for (const concurrency of plan.concurrencies) {
      for (const [system, processes] of [
        ['raw-pg', 1],
        ['giro', 1],
        ['giro', 4],
      ] as const) {
        runs.push(await createRun(context, serverUrl, plan, concurrency, system, processes));
      }
    }
    return runs;
  } finally {
    await control.configure({ faults: before.faults });
  }
}

async function createRun(
  context: BenchContext,
  serverUrl: string,
  plan: CreatePostgresPlan,
  concurrency: number,
  system: CreateSystem,
  processes: number,
): Promise<CreatePostgresRun> {
  const postgresUrl = await createBenchDatabase(serverUrl);
  try {
    await context.sandbox.control.reset();
    const tasks = Array.from(
      { length: processes },
      (_, index): CreateTask => ({
        system,
        bank: context.sandbox.bank,
        databaseFile: join(context.workDir, 'not-opened.sqlite'), // postgresUrl is set
        postgresUrl,
        concurrency,
        warmup: plan.warmup,
        transfers: plan.transfers,
        // raw-pg brings its own originIds; one process only, but keep ranges apart anyway.
        firstOriginId: freshOriginIdRange() + index * 10_000_000,
        maxConnections: concurrency,
        deploymentInFlight: concurrency * processes,
      }),
    );
    const together = await runWorkersTogether<CreateTask, CreateResult>(
      context,
      `create postgres ${system} ×${processes} c=${concurrency}`,
      'create/create-worker.js',
      tasks,
      { alsoMeasure: POSTGRES_COMMAND, alsoMeasureWord: BENCH_DATABASE },
    );
    const results = together.outcomes.map(({ result }) => result);
    await awaitProcessedOnce(() => context.sandbox.control.counters(), processes * (plan.warmup + plan.transfers), {
      unanswered: sum(results.map((result) => result.errors)),
    });
    const completed = sum(results.map((result) => result.completed));
    const run: CreatePostgresRun = {
      system,
      processes,
      concurrencyPerProcess: concurrency,
      completed,
      errors: sum(results.map((result) => result.errors)),
      perSecond: (completed * 1_000) / Math.max(...results.map((result) => result.durationMs)),
      p50Ms: Math.max(...results.map((result) => result.p50Ms)),
      p99Ms: Math.max(...results.map((result) => result.p99Ms)),
      cpuMsPerTransfer: sum(results.map((result) => result.cpuMsPerTransfer * result.completed)) / completed,
      databaseCpuMsPerTransfer:
        together.alsoMeasuredCpuMs === undefined
          ? undefined
          : together.alsoMeasuredCpuMs / (processes * (plan.warmup + plan.transfers)),
      benchDatabaseCpuMsPerTransfer:
        together.alsoMeasuredWordCpuMs === undefined
          ? undefined
          : together.alsoMeasuredWordCpuMs / (processes * (plan.warmup + plan.transfers)),
      bankCpuMsPerTransfer:
        together.sandboxCpuMs === undefined
          ? undefined
          : together.sandboxCpuMs / (processes * (plan.warmup + plan.transfers)),
      machineBusy: together.machineBusy,
    };
    const firstError = results.find((result) => result.firstError)?.firstError;
    context.log(
      `create postgres ${system} ×${processes} c=${concurrency}: ${run.perSecond.toFixed(0)}/s p50 ${run.p50Ms.toFixed(1)} ms p99 ${run.p99Ms.toFixed(1)} ms${run.errors ? ` (${run.errors} errors: ${firstError})` : ''}`,
    );
    return run;
  } finally {
    await dropBenchDatabase(serverUrl);
  }
}

const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);
