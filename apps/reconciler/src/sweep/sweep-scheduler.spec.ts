import type { LoggerService } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { type MovementCountsSource, ReconcilerMetrics, type SweepCounts } from '../ops/reconciler-metrics';
import { SweepRunner, SweepsStoppedError } from './sweep-runner';
import { SWEEP_TIMEOUT_NAME, SweepScheduler } from './sweep-scheduler';

const NO_COUNTS: MovementCountsSource = {
  countByStatus: async () => ({ PENDING: 0, CREATED: 0, IN_PROGRESS: 0, DELAYED: 0, COMPLETED: 0, FAILED: 0 }),
  countUnacknowledgedCancellations: async () => 0,
};

/** A sweeper whose sweeps end only when the test says so, recording when each started and ended. */
class ControlledSweeper {
  readonly events: string[] = [];
  private finishers: ((report: SweepCounts) => void)[] = [];
  stopped = 0;

  sweep(): Promise<SweepCounts> {
    this.events.push(`start@${Date.now()}`);
    return new Promise((resolve) => this.finishers.push(resolve));
  }

  finish(report: Partial<SweepCounts> = {}): void {
    const finisher = this.finishers.shift();
    if (!finisher) throw new Error('no sweep is running');
    this.events.push(`end@${Date.now()}`);
    finisher({ claimed: 0, changed: 0, failed: 0, durationMs: 5, ...report });
  }

  get running(): number {
    return this.finishers.length;
  }

  async stop(): Promise<void> {
    this.stopped++;
  }
}

const silentLogger: LoggerService = { log: () => undefined, error: jest.fn(), warn: () => undefined };

describe('SweepRunner', () => {
  it('runs one sweep at a time: a request made during a sweep starts after it ends', async () => {
    const sweeper = new ControlledSweeper();
    const runner = new SweepRunner(sweeper, new ReconcilerMetrics(NO_COUNTS));
    const first = runner.runOnce();
    const second = runner.runOnce();
    await Promise.resolve();
    expect(sweeper.running).toBe(1);
    sweeper.finish({ claimed: 3 });
    await expect(first).resolves.toMatchObject({ claimed: 3 });
    await new Promise(setImmediate);
    expect(sweeper.running).toBe(1);
    sweeper.finish({ claimed: 4 });
    await expect(second).resolves.toMatchObject({ claimed: 4 });
  });

  it('counts claimed, changed and failed movements and the sweep duration in the metrics', async () => {
    const sweeper = new ControlledSweeper();
    const metrics = new ReconcilerMetrics(NO_COUNTS);
    const runner = new SweepRunner(sweeper, metrics);
    const run = runner.runOnce();
    await Promise.resolve();
    sweeper.finish({ claimed: 7, changed: 5, failed: 2, durationMs: 250 });
    await run;
    const text = await metrics.metrics();
    expect(text).toContain('giro_sweep_claimed_total 7');
    expect(text).toContain('giro_sweep_changed_total 5');
    expect(text).toContain('giro_sweep_failed_total 2');
    expect(text).toContain('giro_sweep_duration_seconds_sum{outcome="ok"} 0.25');
  });

  it('on stop, tells the service at once, refuses queued and new sweeps, and resolves when the running one ended', async () => {
    const sweeper = new ControlledSweeper();
    const runner = new SweepRunner(sweeper, new ReconcilerMetrics(NO_COUNTS));
    const running = runner.runOnce();
    const queued = runner.runOnce();
    await Promise.resolve();
    let stopped = false;
    const stopping = runner.stop().then(() => {
      stopped = true;
    });
    expect(sweeper.stopped).toBe(1);
    await new Promise(setImmediate);
    expect(stopped).toBe(false);
    sweeper.finish();
    await expect(running).resolves.toBeDefined();
    await expect(queued).rejects.toBeInstanceOf(SweepsStoppedError);
    await stopping;
    await runner.stop();
    expect(sweeper.stopped).toBe(1);
    expect(sweeper.running).toBe(0);
    await expect(runner.runOnce()).rejects.toBeInstanceOf(SweepsStoppedError);
  });
});

describe('SweepScheduler', () => {
  beforeEach(() => jest.useFakeTimers({ now: 0 }));
  afterEach(() => jest.useRealTimers());

  it('starts the next sweep only `intervalMs` after the previous one ended, however long it took', async () => {
    const sweeper = new ControlledSweeper();
    const registry = new SchedulerRegistry();
    const scheduler = new SweepScheduler(
      new SweepRunner(sweeper, new ReconcilerMetrics(NO_COUNTS)),
      registry,
      1000,
      silentLogger,
    );
    scheduler.start();
    await jest.advanceTimersByTimeAsync(0);
    expect(sweeper.events).toEqual(['start@0']);

    // A slow sweep: ten intervals pass and no second sweep starts.
    await jest.advanceTimersByTimeAsync(10_000);
    expect(sweeper.running).toBe(1);
    expect(registry.doesExist('timeout', SWEEP_TIMEOUT_NAME)).toBe(false);
    sweeper.finish();
    await jest.advanceTimersByTimeAsync(999);
    expect(sweeper.events).toEqual(['start@0', 'end@10000']);
    await jest.advanceTimersByTimeAsync(1);
    expect(sweeper.events).toEqual(['start@0', 'end@10000', 'start@11000']);
    scheduler.stop();
  });

  it('keeps the schedule after a failed sweep, and schedules nothing after stop()', async () => {
    const registry = new SchedulerRegistry();
    let calls = 0;
    const failing = {
      sweep: async (): Promise<SweepCounts> => {
        calls++;
        throw new Error('database unreachable');
      },
      stop: async () => undefined,
    };
    const scheduler = new SweepScheduler(
      new SweepRunner(failing, new ReconcilerMetrics(NO_COUNTS)),
      registry,
      500,
      silentLogger,
    );
    scheduler.start();
    await jest.advanceTimersByTimeAsync(1000);
    expect(calls).toBe(3);
    expect(silentLogger.error).toHaveBeenCalled();
    scheduler.stop();
    await jest.advanceTimersByTimeAsync(5000);
    expect(calls).toBe(3);
    expect(registry.getTimeouts()).toEqual([]);
  });
});
