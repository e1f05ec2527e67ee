import { performance } from 'node:perf_hooks';
import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import { TRANSFER_RUNTIME, type TransferRuntime } from '../module/transfer-runtime';
import type { MovementRecord } from '../persistence';
import { movementLogLine } from '../transfer/movement-log-line';
import { describeError } from './movement-plan';
import { emptyStep } from './movement-reconciler';
import { SweepPipeline } from './sweep-pipeline';
import { addStep, emptySweepReport, type SweepReport } from './sweep-report';

/**
 * Brings every non-final movement to its final state, one sweep at a time. A sweep claims the movements due
 * when it started with a lease, in batches (creations first), works on a few at once through the shared bank
 * budget (claiming the next batch before the slots run dry), writes each result fenced on its lease, and
 * releases it. One movement's failure never stops a sweep. Many
 * instances (replicas) may sweep the same database at once: the leases keep them off each other's rows.
 */
@Injectable()
export class ReconcileService implements OnModuleDestroy {
  /** This instance's lease owner id. */
  readonly owner: string;
  private stopped: Promise<void> | undefined;

  constructor(@Inject(TRANSFER_RUNTIME) private readonly runtime: TransferRuntime) {
    this.owner = runtime.owner;
  }

  async sweep(): Promise<SweepReport> {
    const started = performance.now();
    const report = emptySweepReport();
    if (this.stopped === undefined) await this.runtime.work.track(this.sweepDue(report));
    report.durationMs = Math.round(performance.now() - started);
    return report;
  }

  /** Stops claiming, waits for the work in flight (sends included) to finish, then releases this owner's leases. */
  stop(): Promise<void> {
    this.stopped ??= (async () => {
      await this.runtime.work.idle();
      await this.runtime.store.releaseAllLeases(this.owner);
    })();
    return this.stopped;
  }

  onModuleDestroy(): Promise<void> {
    return this.stop();
  }

  private async sweepDue(report: SweepReport): Promise<void> {
    const { store, options, schedule } = this.runtime;
    const { batchSize, concurrency, leaseMs } = options.sweep;
    const dueBy = options.clock.now();
    const pressure = schedule.pressure(await store.countDue(dueBy), options.budget.ratePerSecond);
    const pipeline = new SweepPipeline({
      store,
      owner: this.owner,
      batchSize,
      concurrency,
      leaseMs,
      dueBy,
      stopping: () => this.stopped !== undefined,
      work: (record) => this.reconcileOne(record, pressure, report),
    });
    report.claimed = await pipeline.run();
    report.nextDueAt = await store.nextDueAt();
  }

  /** False when the movement was released without progress (still due). */
  private async reconcileOne(record: MovementRecord, pressure: number, report: SweepReport): Promise<boolean> {
    const step = emptyStep();
    try {
      await this.runtime.reconciler.reconcile(record, 'query', pressure, step);
      return !step.leftDue;
    } catch (error) {
      report.errors += 1;
      this.runtime.logger.error(
        movementLogLine(record.originId, `reconcile failed, retried later: ${describeError(error)}`),
      );
      await this.runtime.store.releaseLease(record.originId, this.owner).catch(() => undefined);
      return false;
    } finally {
      addStep(report, step);
    }
  }
}
