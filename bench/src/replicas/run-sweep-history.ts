import type { BenchContext } from '../context';
import type { Backlog } from '../sweep/backlog';
import { SWEEP_TIMINGS, type SweepRun, seedSandbox, sweepRun } from '../sweep/run-sweep';
import { checkpoint, createBenchDatabase, dropBenchDatabase, seedPostgresBacklog } from '../sweep/seed-postgres';
import type { SweepTask } from '../sweep/sweep-task';
import { freshOriginIdRange } from '../workload/transfer-request';
import { seedFinalHistory } from './seed-history';

export interface SweepHistoryPlan {
  /** Due movements swept in each run (after the warm-up). */
  due: number;
  warmup: number;
  /** Final movements in the history; a run without history comes first as the reference. */
  histories: number[];
  inFlight: number;
  latencyMs: number;
}

export interface SweepHistoryRun extends SweepRun {
  /** Final movements in the history (0: the reference run). */
  history: number;
  seedSeconds: number;
}

/**
 * One giro process sweeps the same due backlog on Postgres with no history, then with each history size: the
 * question is whether a table of millions of final movements makes each query cost more (the claim's index
 * scan, the fenced update, the history append).
 */
export async function runSweepHistory(
  context: BenchContext,
  serverUrl: string,
  plan: SweepHistoryPlan,
): Promise<SweepHistoryRun[]> {
  const { control } = context.sandbox;
  const before = await control.config();
  await control.configure({ timings: SWEEP_TIMINGS, faults: { latencyMs: plan.latencyMs } });
  try {
    const runs: SweepHistoryRun[] = [];
    for (const history of [0, ...plan.histories]) {
      const databaseUrl = await createBenchDatabase(serverUrl);
      try {
        const backlog: Backlog = {
          firstOriginId: freshOriginIdRange(),
          warmup: plan.warmup,
          count: plan.due,
          nowMs: Date.now(),
        };
        const seeding = Date.now();
        context.log(`sweep history: seeding ${plan.due} due and ${history} final movements into Postgres`);
        await seedPostgresBacklog(databaseUrl, backlog);
        if (history > 0) await seedFinalHistory(databaseUrl, backlog, history);
        const seedSeconds = Math.round((Date.now() - seeding) / 1_000);
        // The seeding's dirty pages written out before the clock starts: the run measures the sweep, not the
        // server flushing ten million rows in the background while it runs.
        if (!(await checkpoint(databaseUrl))) context.log('sweep history: no CHECKPOINT (the role may not)');
        await seedSandbox(context, backlog);
        const task: SweepTask = { system: 'giro', bank: context.sandbox.bank, databaseUrl, inFlight: plan.inFlight };
        const run = await sweepRun(context, 'postgres', backlog, [task]);
        runs.push({ ...run, history, seedSeconds });
      } finally {
        await dropBenchDatabase(serverUrl);
      }
    }
    return runs;
  } finally {
    await control.configure({ timings: before.timings, faults: before.faults });
  }
}
