import { BankRateLimitedError } from './bank.errors';
import { BankCallBudget, BudgetTimers } from './bank-call-budget';

/** Manual time: `advance` fires due timers in order. */
class ManualTimers implements BudgetTimers {
  private current = 0;
  private timers: { at: number; callback: () => void }[] = [];
  now = () => this.current;
  setTimeout = (callback: () => void, ms: number) => {
    this.timers.push({ at: this.current + ms, callback });
  };
  async advance(ms: number): Promise<void> {
    const until = this.current + ms;
    for (;;) {
      this.timers.sort((a, b) => a.at - b.at);
      const next = this.timers[0];
      if (!next || next.at > until) break;
      this.timers.shift();
      this.current = next.at;
      next.callback();
      await flush();
    }
    this.current = until;
    await flush();
  }
}

const flush = () => new Promise<void>((resolve) => setImmediate(resolve));

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

describe('BankCallBudget', () => {
  it('never has more calls in flight than the cap', async () => {
    const budget = new BankCallBudget({ maxInFlight: 3 });
    let inFlight = 0;
    let peak = 0;
    const calls = Array.from({ length: 20 }, () =>
      budget.throttle('query', async () => {
        inFlight++;
        peak = Math.max(peak, inFlight);
        await flush();
        inFlight--;
      }),
    );
    await Promise.all(calls);
    expect(peak).toBe(3);
    expect(budget.inFlight).toBe(0);
  });

  it('starts waiting creations before waiting queries', async () => {
    const budget = new BankCallBudget({ maxInFlight: 1 });
    const gate = deferred();
    const order: string[] = [];
    const first = budget.throttle('query', async () => {
      order.push('q0');
      await gate.promise;
    });
    const queued = [
      budget.throttle('query', async () => void order.push('q1')),
      budget.throttle('query', async () => void order.push('q2')),
      budget.throttle('create', async () => void order.push('c1')),
      budget.throttle('create', async () => void order.push('c2')),
    ];
    expect(budget.waiting).toEqual({ create: 2, query: 2 });
    gate.resolve();
    await Promise.all([first, ...queued]);
    expect(order).toEqual(['q0', 'c1', 'c2', 'q1', 'q2']);
  });

  it('starts no more calls per second than the rate, after the burst', async () => {
    const timers = new ManualTimers();
    const budget = new BankCallBudget({ maxInFlight: 100, ratePerSecond: 10, burst: 2 }, timers);
    const startedAt: number[] = [];
    const calls = Array.from({ length: 12 }, () =>
      budget.throttle('query', async () => void startedAt.push(timers.now())),
    );
    await flush();
    expect(startedAt).toEqual([0, 0]);
    await timers.advance(1000);
    await Promise.all(calls);
    expect(startedAt).toHaveLength(12);
    // After the burst of 2, one call every 100 ms.
    expect(startedAt.slice(2)).toEqual([100, 200, 300, 400, 500, 600, 700, 800, 900, 1000]);
  });

  it('passes results and errors through and frees the slot after an error', async () => {
    const budget = new BankCallBudget({ maxInFlight: 1 });
    await expect(budget.throttle('create', async () => 42)).resolves.toBe(42);
    await expect(
      budget.throttle('create', async () => {
        throw new Error('bank down');
      }),
    ).rejects.toThrow('bank down');
    await expect(budget.throttle('query', async () => 'still works')).resolves.toBe('still works');
  });

  it('frees the slot when a call throws before returning its promise', async () => {
    const budget = new BankCallBudget({ maxInFlight: 1 });
    const throwsAtOnce = (): Promise<never> => {
      throw new Error('bad request object');
    };
    await expect(budget.throttle('create', throwsAtOnce)).rejects.toThrow('bad request object');
    expect(budget.inFlight).toBe(0);
    await expect(budget.throttle('query', async () => 'next')).resolves.toBe('next');
  });

  it('refuses options that cannot work, naming the option', () => {
    expect(() => new BankCallBudget({ maxInFlight: 0 })).toThrow(/maxInFlight/);
    expect(() => new BankCallBudget({ maxInFlight: 1, ratePerSecond: -1 })).toThrow(/ratePerSecond/);
    expect(() => new BankCallBudget({ maxInFlight: 1, ratePerSecond: Number.NaN })).toThrow(/ratePerSecond/);
    expect(() => new BankCallBudget({ maxInFlight: 1, burst: 0.5 })).toThrow(/burst/);
  });

  describe('shared by replicas', () => {
    /** Starts `count` instant calls and returns the times (ms) at which each started. */
    async function startTimes(budget: BankCallBudget, timers: ManualTimers, count: number, windowMs: number) {
      const started: number[] = [];
      const calls = Array.from({ length: count }, () =>
        budget.throttle('query', async () => {
          started.push(timers.now());
        }),
      );
      await flush(); // the calls the burst allows run before any timer is due
      await timers.advance(windowMs);
      await Promise.all(calls);
      return started;
    }

    it('takes its share of the rate: a quarter of 20/s starts 5 calls a second', async () => {
      const timers = new ManualTimers();
      const budget = new BankCallBudget({ maxInFlight: 8, ratePerSecond: 20 }, timers);
      budget.setShare(1 / 4);
      expect(budget.ratePerSecond).toBe(5);
      expect(budget.maxInFlight).toBe(2);
      const started = await startTimes(budget, timers, 15, 3_000);
      // A burst of its share (5), then one every 200 ms.
      expect(started.filter((at) => at < 1_000)).toHaveLength(9);
      expect(started.filter((at) => at >= 1_000 && at < 2_000)).toHaveLength(5);
    });

    it('keeps an in-flight cap of at least 1 whatever the share', () => {
      const budget = new BankCallBudget({ maxInFlight: 2 });
      budget.setShare(1 / 8);
      expect(budget.maxInFlight).toBe(1);
      expect(() => budget.setShare(0)).toThrow(/share must be in \(0, 1\]/);
    });

    it('pauses every call after a 429 with Retry-After, and tells its listeners', async () => {
      const timers = new ManualTimers();
      const budget = new BankCallBudget({ maxInFlight: 4 }, timers);
      const pauses: number[] = [];
      budget.onPause((until) => pauses.push(until));
      const limited = new BankRateLimitedError('rate-limited', {
        operation: 'get-movement',
        httpStatus: 429,
        retryAfterMs: 2_000,
      });
      await expect(budget.throttle('query', async () => Promise.reject(limited))).rejects.toBe(limited);
      expect(pauses).toEqual([2_000]);
      expect(budget.pausedUntil).toBe(2_000);
      const started: number[] = [];
      const next = budget.throttle('create', async () => {
        started.push(timers.now());
      });
      await timers.advance(1_999);
      expect(started).toEqual([]);
      await timers.advance(1);
      await next;
      expect(started).toEqual([2_000]);
      expect(budget.pausedUntil).toBeNull();
    });

    it('takes a pause another replica reported, and ignores one that ends sooner', async () => {
      const timers = new ManualTimers();
      const budget = new BankCallBudget({ maxInFlight: 4 }, timers);
      budget.pauseUntil(5_000);
      budget.pauseUntil(3_000);
      expect(budget.pausedUntil).toBe(5_000);
    });
  });
});
