import { copyFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { BenchContext } from '../context';
import { ratePerSecond } from '../stats';
import { runWorkersTogether } from '../workers/run-together';
import { freshOriginIdRange, transferRequestBody } from '../workload/transfer-request';
import type { Backlog } from './backlog';
import { makeMeasuredDue } from './measured-due';
import {
  BENCH_DATABASE,
  createBenchDatabase,
  dropBenchDatabase,
  postgresReachable,
  seedPostgresBacklog,
} from './seed-postgres';
import { seedSqliteBacklog } from './seed-sqlite';
import type { SweepResult, SweepSystem, SweepTask } from './sweep-task';

export interface SweepRun {
  engine: 'sqlite' | 'postgres';
  system: SweepSystem;
  backlog: number;
  processes: number;
  /** Queries answered and written, all processes together. */
  queried: number;
  errors: number;
  /** From go to the last process's end. */
  durationMs: number;
  perSecond: number;
  /** Each process's peak RSS, and the largest V8 heap each had (the JS part of it). */
  peakRssMiB: number[];
  peakHeapMiB: number[];
  /** CPU time per query of the sweeping processes (all together) and of the sandbox bank, ms. */
  cpuMsPerQuery: number;
  sandboxCpuMsPerQuery: number | undefined;
  /** Postgres only: CPU time per query of the database server (all its processes), ms. */
  databaseCpuMsPerQuery: number | undefined;
  /**
   * Postgres only: the same of the benchmark database's backends alone, ms: on a server other work shares, the
   * server's own processes (WAL writer, checkpointer) and other databases' backends are left out.
   */
  benchDatabaseCpuMsPerQuery: number | undefined;
  /** How busy the machine's CPU was during the run (0 … 1, all cores). */
  machineBusy: number | undefined;
  /** Stopped after the plan's time limit (--quick) rather than draining the backlog. */
  timeBoxed: boolean;
}

export interface SweepBenchmarks {
  sqlite: SweepRun[];
  /** The runs, or why there are none. */
  postgres: SweepRun[] | { skipped: string };
}

/** Every movement stays IN_PROGRESS for the whole benchmark: each query finds one, none changes state. */
export const SWEEP_TIMINGS = { createdMs: 0, inProgressMs: 86_400_000 };
const DEFAULT_POSTGRES_URL = 'postgres://postgres@127.0.0.1:5432/test';
/** The command name of the Postgres server's processes, whose CPU the Postgres runs measure too. */
const POSTGRES_COMMAND = 'postgres';

/**
 * giro's sweep against the limit on SQLite, then on Postgres with 1, 2 and 4 processes. `database`: the Postgres
 * database the runs create and drop (one name per kind of run, so that two runs at once never share one).
 */
export async function runSweepBenchmarks(
  context: BenchContext,
  database: string = BENCH_DATABASE,
): Promise<SweepBenchmarks> {
  const { control } = context.sandbox;
  const before = await control.config();
  await control.configure({ timings: SWEEP_TIMINGS });
  try {
    const sqlite = context.plan.only === 'postgres-sweep' ? [] : await runSqliteSweeps(context);
    const postgres = await runPostgresSweeps(context, database);
    return { sqlite, postgres };
  } finally {
    await control.configure({ timings: before.timings, faults: before.faults });
  }
}

/** giro's sweep and the limit on each SQLite backlog, each on its own copy of the seeded file. */
async function runSqliteSweeps(context: BenchContext): Promise<SweepRun[]> {
  const { plan, workDir } = context;
  const runs: SweepRun[] = [];
  for (const count of plan.sweep.sqliteBacklogs) {
    const backlog: Backlog = {
      firstOriginId: freshOriginIdRange(),
      warmup: plan.sweep.warmupPerProcess,
      count,
      nowMs: Date.now(),
    };
    const seeded = join(workDir, `backlog-${count}.sqlite`);
    context.log(`sweep: seeding ${count} due movements (+${backlog.warmup} to warm up) into SQLite`);
    await seedSqliteBacklog(seeded, backlog);
    for (const system of ['limit', 'giro'] as const) {
      const file = join(workDir, `sweep-${system}-${count}.sqlite`);
      copyFileSync(seeded, file);
      await seedSandbox(context, backlog);
      const task: SweepTask = {
        system,
        bank: context.sandbox.bank,
        databaseUrl: `sqlite:${file}`,
        inFlight: plan.sweep.inFlight,
        ...(plan.sweep.timeLimitMs !== undefined && { timeLimitMs: plan.sweep.timeLimitMs }),
      };
      runs.push(await sweepRun(context, 'sqlite', backlog, [task]));
      rmSync(file, { force: true });
    }
    rmSync(seeded, { force: true });
  }
  return runs;
}

/** giro's sweep on Postgres with 1, 2 and 4 processes, the sandbox adding a round trip to every answer. */
async function runPostgresSweeps(context: BenchContext, database: string): Promise<SweepRun[] | { skipped: string }> {
  const serverUrl = process.env.BENCH_POSTGRES_URL ?? DEFAULT_POSTGRES_URL;
  if (!(await postgresReachable(serverUrl))) {
    return { skipped: 'no Postgres server answered (set BENCH_POSTGRES_URL)' };
  }
  const { plan } = context;
  const databaseUrl = await createBenchDatabase(serverUrl, database);
  await context.sandbox.control.configure({ faults: { latencyMs: plan.sweep.postgresLatencyMs } });
  try {
    const runs: SweepRun[] = [];
    for (const processes of plan.sweep.postgresProcesses) {
      // The processes sweep the warm-up movements together, so each sweeps about its share of them.
      const backlog: Backlog = {
        firstOriginId: freshOriginIdRange(),
        warmup: plan.sweep.warmupPerProcess * processes,
        count: plan.sweep.postgresBacklog,
        nowMs: Date.now(),
      };
      context.log(`sweep: seeding ${backlog.count} due movements (+${backlog.warmup} to warm up) into Postgres`);
      await seedPostgresBacklog(databaseUrl, backlog);
      await seedSandbox(context, backlog);
      // The bank lets every process have inFlight queries in flight: the runs measure how the sweep scales with
      // processes, not the budget's division of one process's allowance among them.
      const task: SweepTask = {
        system: 'giro',
        bank: context.sandbox.bank,
        databaseUrl,
        inFlight: plan.sweep.inFlight,
        deploymentInFlight: plan.sweep.inFlight * processes,
        ...(plan.sweep.timeLimitMs !== undefined && { timeLimitMs: plan.sweep.timeLimitMs }),
      };
      runs.push(
        await sweepRun(
          context,
          'postgres',
          backlog,
          Array.from({ length: processes }, () => task),
        ),
      );
    }
    return runs;
  } finally {
    await dropBenchDatabase(serverUrl, database);
  }
}

/** The warm-up part and the measured part, each its own seed request (one takes at most 1 000 000 movements). */
export async function seedSandbox(context: BenchContext, backlog: Backlog): Promise<void> {
  const { control } = context.sandbox;
  await control.reset();
  await control.seed(backlog.firstOriginId, backlog.warmup, transferRequestBody());
  await control.seed(backlog.firstOriginId + backlog.warmup, backlog.count, transferRequestBody());
}

/** The processes of `tasks` set up (each sweeps its warm-up share), the measured movements made due, then all go. */
export async function sweepRun(
  context: BenchContext,
  engine: SweepRun['engine'],
  backlog: Backlog,
  tasks: SweepTask[],
): Promise<SweepRun> {
  const label = `sweep ${engine} ${tasks[0].system} ×${tasks.length}, ${backlog.count} due`;
  const together = await runWorkersTogether<SweepTask, SweepResult>(context, label, 'sweep/sweep-worker.js', tasks, {
    // The backends of the run's own database, named in its URL.
    ...(engine === 'postgres' && {
      alsoMeasure: POSTGRES_COMMAND,
      alsoMeasureWord: new URL(tasks[0].databaseUrl).pathname.slice(1),
    }),
    beforeGo: () => makeMeasuredDue(tasks[0].databaseUrl, backlog),
  });
  const queried = sum(together.outcomes.map(({ result }) => result.queried));
  // A run that measured nothing is a broken benchmark (its backlog was swept before go), not a rate of zero.
  if (queried === 0) throw new Error(`${label}: nothing was queried after go`);
  const run: SweepRun = {
    engine,
    system: tasks[0].system,
    backlog: backlog.count,
    processes: tasks.length,
    queried,
    errors: sum(together.outcomes.map(({ result }) => result.errors)),
    durationMs: together.wallMs,
    perSecond: ratePerSecond(queried, together.wallMs),
    peakRssMiB: together.outcomes.map(({ usage }) => usage.peakRssMiB),
    peakHeapMiB: together.outcomes.map(({ usage }) => usage.peakHeapMiB),
    cpuMsPerQuery: sum(together.outcomes.map(({ usage }) => usage.cpuMs)) / queried,
    sandboxCpuMsPerQuery: together.sandboxCpuMs === undefined ? undefined : together.sandboxCpuMs / queried,
    databaseCpuMsPerQuery: together.alsoMeasuredCpuMs === undefined ? undefined : together.alsoMeasuredCpuMs / queried,
    benchDatabaseCpuMsPerQuery:
      together.alsoMeasuredWordCpuMs === undefined ? undefined : together.alsoMeasuredWordCpuMs / queried,
    machineBusy: together.machineBusy,
    timeBoxed: tasks[0].timeLimitMs !== undefined,
  };
  context.log(
    `sweep ${engine} ${run.system} ×${run.processes} backlog ${backlog.count}: ${run.perSecond.toFixed(0)} queries/s (${queried} queried, ${run.errors} errors), peak RSS ${run.peakRssMiB.join(' / ')} MiB`,
  );
  return run;
}

const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);
