import { performance } from 'node:perf_hooks';
import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import { TRANSFER_RUNTIME, type TransferRuntime } from '../module/transfer-runtime';
import type { MovementRecord } from '../persistence';
import { movementLogLine } from '../transfer/movement-log-line';
import { forEachConcurrently } from './for-each-concurrently';
import { describeError } from './movement-plan';
import { emptyStep } from './movement-reconciler';
import { addStep, emptySweepReport, type SweepReport } from './sweep-report';

/**
 * Brings every non-final movement to its final state, one sweep at a time. A sweep claims due movements
 * with a lease, in batches (creations first), works on a few at once through the shared bank budget, writes
 * each result fenced on its lease, and releases it. One movement's failure never stops a sweep. Many
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
    if (this.stopped === undefined) await this.runtime.work.track(this.sweepBatches(report));
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

  private async sweepBatches(report: SweepReport): Promise<void> {
    const { store, options, schedule } = this.runtime;
    const { batchSize, concurrency, leaseMs } = options.sweep;
    const pressure = schedule.pressure(await store.countDue(), options.budget.ratePerSecond);
    const seen = new Set<number>();
    while (this.stopped === undefined) {
      const batch = await store.claimDue({ owner: this.owner, limit: batchSize, leaseMs });
      const fresh: MovementRecord[] = [];
      for (const record of batch) {
        if (!seen.has(record.originId)) {
          seen.add(record.originId);
          fresh.push(record);
        } else {
          // Due again within this sweep (given back earlier): the next sweep takes it, so a sweep always ends.
          await store.releaseLease(record.originId, this.owner);
        }
      }
      report.claimed += fresh.length;
      await forEachConcurrently(fresh, concurrency, (record) => this.reconcileOne(record, pressure, report));
      if (batch.length < batchSize || fresh.length === 0) return;
    }
  }

  private async reconcileOne(record: MovementRecord, pressure: number, report: SweepReport): Promise<void> {
    // Stopping: no new bank call; stop() releases the lease.
    if (this.stopped !== undefined) return;
    const step = emptyStep();
    try {
      await this.runtime.reconciler.reconcile(record, 'query', pressure, step);
    } catch (error) {
      report.errors += 1;
      this.runtime.logger.error(
        movementLogLine(record.originId, `reconcile failed, retried later: ${describeError(error)}`),
      );
      await this.runtime.store.releaseLease(record.originId, this.owner).catch(() => undefined);
    } finally {
      addStep(report, step);
    }
  }
}
