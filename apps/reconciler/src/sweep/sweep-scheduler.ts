import type { LoggerService } from '@nestjs/common';
import type { SchedulerRegistry } from '@nestjs/schedule';
import type { SweepCounts } from '../ops/reconciler-metrics';
import { type SweepRunner, SweepsStoppedError } from './sweep-runner';

export const SWEEP_TIMEOUT_NAME = 'giro-sweep';

/**
 * The recurring sweep: a @nestjs/schedule timeout that is registered again only once the previous sweep
 * has ended, so sweeps never overlap and `intervalMs` is the pause between them (a fixed-rate interval
 * would pile runs up behind a slow bank). A failed sweep is logged and the schedule goes on.
 */
export class SweepScheduler {
  private started = false;

  constructor(
    private readonly runner: SweepRunner<SweepCounts>,
    private readonly registry: SchedulerRegistry,
    private readonly intervalMs: number,
    private readonly logger: LoggerService,
  ) {}

  start(): void {
    if (this.started) return;
    this.started = true;
    this.scheduleNext(0);
  }

  /** No further sweep is scheduled; the one running (if any) is the runner's to finish. */
  stop(): void {
    this.started = false;
    if (this.registry.doesExist('timeout', SWEEP_TIMEOUT_NAME)) this.registry.deleteTimeout(SWEEP_TIMEOUT_NAME);
  }

  private scheduleNext(delayMs: number): void {
    const timer = setTimeout(() => {
      this.registry.deleteTimeout(SWEEP_TIMEOUT_NAME);
      void this.runAndReschedule();
    }, delayMs);
    this.registry.addTimeout(SWEEP_TIMEOUT_NAME, timer);
  }

  private async runAndReschedule(): Promise<void> {
    try {
      await this.runner.runOnce();
    } catch (error) {
      if (error instanceof SweepsStoppedError) return;
      this.logger.error(
        `sweep failed, the next one runs as scheduled: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`,
      );
    }
    if (this.started && !this.runner.stopped) this.scheduleNext(this.intervalMs);
  }
}
