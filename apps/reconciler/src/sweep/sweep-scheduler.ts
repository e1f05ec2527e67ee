import { type Clock, isDatabaseUnavailable, systemClock } from '@giro/transfer-module';
import type { LoggerService } from '@nestjs/common';
import type { SchedulerRegistry } from '@nestjs/schedule';
import type { SweepCounts } from '../ops/reconciler-metrics';
import { type SweepRunner, SweepsStoppedError } from './sweep-runner';

export const SWEEP_TIMEOUT_NAME = 'giro-sweep';

/** What the scheduler reads of a sweep's report besides the counts. */
export interface ScheduledSweepReport extends SweepCounts {
  /** The earliest next query of a movement not final and not leased, read after the sweep; null = none. */
  nextDueAt: Date | null;
}

/** The shortest pause, as a share of `intervalMs`: a movement that stays due cannot make sweeps spin. */
const FLOOR_FRACTION = 10;
/** A sweep failing this soon after the last failure belongs to the same outage of the database. */
export const SAME_OUTAGE_MS = 30_000;

/**
 * The recurring sweep: a @nestjs/schedule timeout that is registered again only once the previous sweep
 * has ended, so sweeps never overlap (a fixed-rate interval would pile runs up behind a slow bank). The next
 * sweep starts when the earliest movement falls due, so detection lag is not stretched by a fixed pause, but
 * at most `intervalMs` after the previous one ended (new work may come from other replicas or the admin API)
 * and at least `intervalMs / 10` after it. A failed sweep is logged and the next one runs `intervalMs` later;
 * while the database is out, that is said once (a warning), and once more when a sweep runs again. A failure
 * within SAME_OUTAGE_MS of the last one belongs to the same outage and is not said again: a full disk lets some
 * sweeps through and fails others, and the log would otherwise say the outage at every turn.
 */
export class SweepScheduler {
  private started = false;
  private readonly floorMs: number;
  /** When a sweep last failed because the database was out (epoch ms of the clock). */
  private lastOutageFailureMs = Number.NEGATIVE_INFINITY;
  /** Sweeps failed in the current outage before one ran again. */
  private failedMeanwhile = 0;
  /** Whether "answers again" has been said for the current outage (true while there is none). */
  private backSaid = true;

  constructor(
    private readonly runner: SweepRunner<ScheduledSweepReport>,
    private readonly registry: SchedulerRegistry,
    private readonly intervalMs: number,
    private readonly logger: LoggerService,
    /** The transfer module's clock, which `nextDueAt` is read against. */
    private readonly clock: Clock = systemClock,
  ) {
    this.floorMs = Math.ceil(intervalMs / FLOOR_FRACTION);
  }

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
    let delayMs = this.intervalMs;
    try {
      const report = await this.runner.runOnce();
      delayMs = this.delayUntil(report.nextDueAt);
      if (!this.backSaid) {
        this.logger.log(`the database answers again: sweeps run (${this.failedMeanwhile} failed meanwhile)`);
        this.backSaid = true;
      }
    } catch (error) {
      if (error instanceof SweepsStoppedError) return;
      const cause = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      if (!isDatabaseUnavailable(error)) {
        this.logger.error(`sweep failed, the next one runs as scheduled: ${cause}`);
      } else {
        const now = this.clock.now().getTime();
        const opensOutage = now - this.lastOutageFailureMs >= SAME_OUTAGE_MS;
        this.lastOutageFailureMs = now;
        if (opensOutage) {
          this.logger.warn(
            `the database is unavailable, sweeps fail until it is back (tried every interval): ${cause}`,
          );
          this.failedMeanwhile = 0;
          this.backSaid = false;
        }
        if (!this.backSaid) this.failedMeanwhile += 1;
      }
    }
    if (this.started && !this.runner.stopped) this.scheduleNext(delayMs);
  }

  /** The pause until `nextDueAt`, within [floor, interval]; the interval when nothing (valid) is pending. */
  private delayUntil(nextDueAt: Date | null): number {
    const dueInMs = nextDueAt === null ? Number.NaN : nextDueAt.getTime() - this.clock.now().getTime();
    if (Number.isNaN(dueInMs)) return this.intervalMs;
    return Math.min(this.intervalMs, Math.max(this.floorMs, dueInMs));
  }
}
