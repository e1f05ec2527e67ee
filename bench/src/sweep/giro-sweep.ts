import { performance } from 'node:perf_hooks';
import { SweepService, TransferModule } from '@giro/transfer-module';
import { NestFactory } from '@nestjs/core';
import { giroBankOptions } from '../bank/bank-settings';
import { SWEPT_AGAIN_AFTER_MS } from './backlog';
import type { SweepResult, SweepTask } from './sweep-task';

/** A movement queried in this benchmark is not due again before the backlog is drained (see backlog.ts). */
const SWEEP_POLLING = { minIntervalMs: SWEPT_AGAIN_AFTER_MS, delayedMinIntervalMs: 2 * SWEPT_AGAIN_AFTER_MS };

/**
 * One sweep of giro's SweepService over everything due, as a reconciler process runs it: claim in
 * batches with a lease, query through the shared budget (`inFlight` calls at most), write each answer fenced
 * on the lease. Set-up ends with a sweep of the warm-up movements; the measured ones are made due before go
 * (makeMeasuredDue), and the sweep at go takes them.
 */
export async function prepareGiroSweep(task: SweepTask): Promise<() => Promise<SweepResult>> {
  const app = await NestFactory.createApplicationContext(
    TransferModule.forRoot({
      bank: giroBankOptions(task.bank, task.inFlight),
      databaseUrl: task.databaseUrl,
      runMigrations: true,
      budget: { maxInFlight: task.deploymentInFlight ?? task.inFlight },
      sweep: { concurrency: task.inFlight },
      polling: SWEEP_POLLING,
    }),
    { logger: ['error', 'warn'] },
  );
  const reconcile = app.get(SweepService);
  const warmup = await reconcile.sweep();
  if (warmup.errors > 0) throw new Error(`the warm-up sweep had ${warmup.errors} errors`);
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
