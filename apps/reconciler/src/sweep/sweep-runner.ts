import { SweepUnavailableError } from '@giro/admin';
import type { ReconcilerMetrics, SweepCounts } from '../ops/reconciler-metrics';

/** What the runner needs of SweepService. */
export interface Sweeper<Report extends SweepCounts> {
  sweep(): Promise<Report>;
  stop(): Promise<void>;
}

/** A sweep was asked for after shutdown began (`POST /admin/reconcile` answers 503). */
export class SweepsStoppedError extends SweepUnavailableError {
  constructor() {
    super('the reconciler is shutting down: no new sweep starts');
    this.name = 'SweepsStoppedError';
  }
}

/**
 * Runs sweeps one at a time, whoever asks (the schedule, `POST /admin/reconcile`, the CLI): a request
 * made while a sweep runs starts after it ends. Records every sweep in the metrics.
 *
 * `stop()` refuses new sweeps and tells the reconcile service at once, so the running sweep makes no new
 * bank call: the calls in flight finish, the movements it claimed but had not reached yet are released
 * (not worked through), and `stop()` resolves once that sweep has ended.
 */
export class SweepRunner<Report extends SweepCounts> {
  private tail: Promise<unknown> = Promise.resolve();
  private stopping: Promise<void> | undefined;

  constructor(
    private readonly sweeper: Sweeper<Report>,
    private readonly metrics: ReconcilerMetrics,
  ) {}

  get stopped(): boolean {
    return this.stopping !== undefined;
  }

  runOnce(): Promise<Report> {
    if (this.stopping) return Promise.reject(new SweepsStoppedError());
    const run = this.tail.then(() => this.sweep());
    this.tail = run.catch(() => undefined);
    return run;
  }

  stop(): Promise<void> {
    this.stopping ??= Promise.all([this.sweeper.stop(), this.tail]).then(() => undefined);
    return this.stopping;
  }

  private async sweep(): Promise<Report> {
    // Requests queued before stop() was called do not start once it has been.
    if (this.stopping) throw new SweepsStoppedError();
    const started = performance.now();
    try {
      const report = await this.sweeper.sweep();
      this.metrics.recordSweep(report);
      return report;
    } catch (error) {
      this.metrics.recordFailedSweep(performance.now() - started);
      throw error;
    }
  }
}
