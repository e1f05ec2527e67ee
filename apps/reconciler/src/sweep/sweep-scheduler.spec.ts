import type { LoggerService } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { type MovementCountsSource, ReconcilerMetrics } from '../ops/reconciler-metrics';
import { SweepRunner, SweepsStoppedError } from './sweep-runner';
import { SAME_OUTAGE_MS, type ScheduledSweepReport, SWEEP_TIMEOUT_NAME, SweepScheduler } from './sweep-scheduler';

const NO_COUNTS: MovementCountsSource = {
  countByStatus: async () => ({
    AWAITING_APPROVAL: 0,
    SCHEDULED: 0,
    PENDING: 0,
    CREATED: 0,
    IN_PROGRESS: 0,
    DELAYED: 0,
    COMPLETED: 0,
    FAILED: 0,
    REJECTED: 0,
    CANCELED: 0,
  }),
  countUnacknowledgedCancellations: async () => 0,
  countUnresolvedAnomalies: async () => 0,
  oldestNonFinalCreatedAt: async () => null,
};

/** A sweeper whose sweeps end only when the test says so, recording when each started and ended. */
class ControlledSweeper {
  readonly events: string[] = [];
  private finishers: ((report: ScheduledSweepReport) => void)[] = [];
  stopped = 0;

  sweep(): Promise<ScheduledSweepReport> {
    this.events.push(`start@${Date.now()}`);
    return new Promise((resolve) => this.finishers.push(resolve));
  }

  finish(report: Partial<ScheduledSweepReport> = {}): void {
    const finisher = this.finishers.shift();
    if (!finisher) throw new Error('no sweep is running');
    this.events.push(`end@${Date.now()}`);
    finisher({ claimed: 0, changed: 0, failed: 0, durationMs: 5, nextDueAt: null, ...report });
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

  /** A scheduler with a 1000 ms interval (so a 100 ms floor), its first sweep started at 0. */
  async function startedScheduler(clock?: { now(): Date }) {
    const sweeper = new ControlledSweeper();
    const registry = new SchedulerRegistry();
    const runner = new SweepRunner(sweeper, new ReconcilerMetrics(NO_COUNTS));
    const scheduler = new SweepScheduler(runner, registry, 1000, silentLogger, clock);
    scheduler.start();
    await jest.advanceTimersByTimeAsync(0);
    expect(sweeper.events).toEqual(['start@0']);
    return { sweeper, registry, scheduler };
  }

  it('starts the next sweep when the earliest movement falls due, sooner than the interval', async () => {
    const { sweeper, scheduler } = await startedScheduler();
    await jest.advanceTimersByTimeAsync(200);
    sweeper.finish({ nextDueAt: new Date(550) });
    await jest.advanceTimersByTimeAsync(349);
    expect(sweeper.events).toEqual(['start@0', 'end@200']);
    await jest.advanceTimersByTimeAsync(1);
    expect(sweeper.events).toEqual(['start@0', 'end@200', 'start@550']);
    scheduler.stop();
  });

  it('waits no longer than the interval when the earliest movement is due later, or none is pending', async () => {
    const { sweeper, scheduler } = await startedScheduler();
    sweeper.finish({ nextDueAt: new Date(600_000) });
    await jest.advanceTimersByTimeAsync(1000);
    expect(sweeper.events).toEqual(['start@0', 'end@0', 'start@1000']);
    sweeper.finish({ nextDueAt: null });
    await jest.advanceTimersByTimeAsync(999);
    expect(sweeper.running).toBe(0);
    await jest.advanceTimersByTimeAsync(1);
    expect(sweeper.events).toEqual(['start@0', 'end@0', 'start@1000', 'end@1000', 'start@2000']);
    scheduler.stop();
  });

  it('waits at least a tenth of the interval when a movement is already due, so sweeps cannot spin', async () => {
    const { sweeper, scheduler } = await startedScheduler();
    await jest.advanceTimersByTimeAsync(500);
    sweeper.finish({ nextDueAt: new Date(0) });
    await jest.advanceTimersByTimeAsync(99);
    expect(sweeper.running).toBe(0);
    await jest.advanceTimersByTimeAsync(1);
    expect(sweeper.events).toEqual(['start@0', 'end@500', 'start@600']);
    // Due exactly now, and an invalid date: the floor, and the interval.
    sweeper.finish({ nextDueAt: new Date(600) });
    await jest.advanceTimersByTimeAsync(100);
    expect(sweeper.events.at(-1)).toBe('start@700');
    sweeper.finish({ nextDueAt: new Date(Number.NaN) });
    await jest.advanceTimersByTimeAsync(999);
    expect(sweeper.running).toBe(0);
    await jest.advanceTimersByTimeAsync(1);
    expect(sweeper.events.at(-1)).toBe('start@1700');
    scheduler.stop();
  });

  it("reads nextDueAt against the transfer module's clock, not the timer's", async () => {
    // The module's clock is an hour ahead of the timers' time.
    const { sweeper, scheduler } = await startedScheduler({ now: () => new Date(Date.now() + 3_600_000) });
    sweeper.finish({ nextDueAt: new Date(3_600_000 + 400) });
    await jest.advanceTimersByTimeAsync(399);
    expect(sweeper.running).toBe(0);
    await jest.advanceTimersByTimeAsync(1);
    expect(sweeper.events).toEqual(['start@0', 'end@0', 'start@400']);
    scheduler.stop();
  });

  it('after stop(), a sweep that ends with work due soon schedules nothing', async () => {
    const { sweeper, registry, scheduler } = await startedScheduler();
    scheduler.stop();
    sweeper.finish({ nextDueAt: new Date(150) });
    await jest.advanceTimersByTimeAsync(5000);
    expect(sweeper.events).toEqual(['start@0', 'end@0']);
    expect(registry.getTimeouts()).toEqual([]);
  });

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

  it('runs the next sweep `intervalMs` after a failed one, and schedules nothing after stop()', async () => {
    const registry = new SchedulerRegistry();
    let calls = 0;
    const failing = {
      sweep: async (): Promise<ScheduledSweepReport> => {
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

  it('says once that the database is out, however many sweeps fail, and once that it answers again', async () => {
    const registry = new SchedulerRegistry();
    let down = true;
    const lost = Object.assign(new Error('Connection terminated unexpectedly'), { code: 'ECONNRESET' });
    const sweeper = {
      sweep: async (): Promise<ScheduledSweepReport> => {
        if (down) throw lost;
        return { claimed: 0, changed: 0, failed: 0, durationMs: 5, nextDueAt: null };
      },
      stop: async () => undefined,
    };
    const logger = { log: jest.fn(), error: jest.fn(), warn: jest.fn() };
    const scheduler = new SweepScheduler(
      new SweepRunner(sweeper, new ReconcilerMetrics(NO_COUNTS)),
      registry,
      500,
      logger,
    );
    scheduler.start();
    await jest.advanceTimersByTimeAsync(2000); // five failed sweeps
    expect(logger.warn).toHaveBeenCalledTimes(1);
    expect(logger.warn.mock.calls[0][0]).toMatch(/the database is unavailable.*Connection terminated/);
    expect(logger.error).not.toHaveBeenCalled();
    down = false;
    await jest.advanceTimersByTimeAsync(1000);
    expect(logger.log).toHaveBeenCalledTimes(1);
    expect(logger.log.mock.calls[0][0]).toMatch(/the database answers again: sweeps run \(5 failed meanwhile\)/);

    // A database that lets some sweeps through and fails others (a full disk): the same outage, said no more.
    for (let turn = 0; turn < 3; turn++) {
      down = true;
      await jest.advanceTimersByTimeAsync(1000);
      down = false;
      await jest.advanceTimersByTimeAsync(1000);
    }
    expect(logger.warn).toHaveBeenCalledTimes(1);
    expect(logger.log).toHaveBeenCalledTimes(1);

    // Quiet for SAME_OUTAGE_MS since the last failure: the next one is a new outage, said again.
    await jest.advanceTimersByTimeAsync(SAME_OUTAGE_MS);
    down = true;
    await jest.advanceTimersByTimeAsync(1000);
    expect(logger.warn).toHaveBeenCalledTimes(2);
    down = false;
    await jest.advanceTimersByTimeAsync(1000);
    expect(logger.log).toHaveBeenCalledTimes(2);
    expect(logger.error).not.toHaveBeenCalled();
    scheduler.stop();
  });
});
