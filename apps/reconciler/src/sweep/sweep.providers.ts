import { type Clock, type SweepReport, SweepService, WebhookDispatcher } from '@giro/transfer-module';
import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnModuleDestroy,
  type Provider,
} from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { ReconcilerMetrics } from '../ops/reconciler-metrics';
import { SweepRunner } from './sweep-runner';
import { SweepScheduler } from './sweep-scheduler';

export type ReconcilerSweepRunner = SweepRunner<SweepReport>;

export const SWEEP_RUNNER = Symbol('SWEEP_RUNNER');
/** The longest pause between sweeps (SWEEP_INTERVAL_MS), or null when sweeps run only on demand. */
export const SWEEP_INTERVAL = Symbol('SWEEP_INTERVAL');
/** The transfer module's clock: the schedule reads a sweep's `nextDueAt` against it. */
export const SWEEP_CLOCK = Symbol('SWEEP_CLOCK');

export const sweepRunnerProvider: Provider = {
  provide: SWEEP_RUNNER,
  useFactory: (reconcile: SweepService, metrics: ReconcilerMetrics) => new SweepRunner(reconcile, metrics),
  inject: [SweepService, ReconcilerMetrics],
};

/**
 * Starts the recurring sweep and the webhook deliveries once the application is up, and on shutdown (the first
 * hook Nest calls, before the transfer module's own, while the database is open) stops scheduling, lets the
 * running sweep finish and releases this instance's leases, and stops the deliveries: the attempts in flight
 * finish and are recorded, the deliveries' leases are released. Without a schedule (sweeps on demand only)
 * nothing is delivered on its own either.
 */
@Injectable()
export class SweepLifecycle implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly scheduler: SweepScheduler | undefined;

  constructor(
    @Inject(SWEEP_RUNNER) private readonly runner: ReconcilerSweepRunner,
    @Inject(SWEEP_INTERVAL) intervalMs: number | null,
    @Inject(SWEEP_CLOCK) clock: Clock,
    registry: SchedulerRegistry,
    @Inject(WebhookDispatcher) private readonly webhooks: WebhookDispatcher,
  ) {
    this.scheduler =
      intervalMs === null
        ? undefined
        : new SweepScheduler(runner, registry, intervalMs, new Logger(SweepScheduler.name), clock);
  }

  onApplicationBootstrap(): void {
    if (this.scheduler === undefined) return;
    this.scheduler.start();
    this.webhooks.start();
  }

  async onModuleDestroy(): Promise<void> {
    this.scheduler?.stop();
    await Promise.all([this.runner.stop(), this.scheduler && this.webhooks.stop()]);
  }
}
