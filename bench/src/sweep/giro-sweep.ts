import { performance } from 'node:perf_hooks';
import { ReconcileService, TransferModule } from '@giro/transfer-module';
import { NestFactory } from '@nestjs/core';
import { giroBankOptions } from '../bank/bank-settings';
import type { SweepResult, SweepTask } from './sweep-task';

/**
 * Longer than any run, so that a movement queried in this sweep is not due again before the backlog is
 * drained (by this process or another): every due movement is queried exactly once, as by the limit.
 */
const SWEEP_POLLING = { minIntervalMs: 3_600_000, delayedMinIntervalMs: 7_200_000 };

/**
 * One sweep of giro's ReconcileService over everything due, as a reconciler process runs it: claim in
 * batches with a lease, query through the shared budget (`inFlight` calls at most), write each answer fenced
 * on the lease.
 */
export async function prepareGiroSweep(task: SweepTask): Promise<() => Promise<SweepResult>> {
  const app = await NestFactory.createApplicationContext(
    TransferModule.forRoot({
      bank: giroBankOptions(task.bank, task.inFlight),
      databaseUrl: task.databaseUrl,
      runMigrations: true,
      budget: { maxInFlight: task.inFlight },
      sweep: { concurrency: task.inFlight },
      polling: SWEEP_POLLING,
    }),
    { logger: ['error', 'warn'] },
  );
  const reconcile = app.get(ReconcileService);
  return async () => {
    const started = performance.now();
    // stop() ends the sweep as a shutdown would: no new claim or call, the calls under way finish.
    const timer =
      task.timeLimitMs === undefined ? undefined : setTimeout(() => void reconcile.stop(), task.timeLimitMs);
    const report = await reconcile.sweep();
    const durationMs = performance.now() - started;
    clearTimeout(timer);
    await app.close();
    return { queried: report.queried, errors: report.errors, durationMs };
  };
}
