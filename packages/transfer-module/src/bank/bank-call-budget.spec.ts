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

/** Queues `count` instant calls, lets `ms` pass, and returns when each started. */
async function flood(budget: BankCallBudget, timers: ManualTimers, count: number, ms: number): Promise<number[]> {
  const startedAt: number[] = [];
  const calls = Array.from({ length: count }, () =>
    budget.throttle('query', async () => void startedAt.push(timers.now())),
  );
  await flush();
  await timers.advance(ms);
  await Promise.all(calls);
  return startedAt;
}

/** The most starts within any 1 000 ms, the window beginning at any start. */
function busiestSecond(startedAt: number[]): number {
  return Math.max(...startedAt.map((from) => startedAt.filter((at) => at >= from && at < from + 1_000).length));
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

  it('starts at most the rate in any second, wherever the second begins, and keeps up with it', async () => {
    const timers = new ManualTimers();
    const budget = new BankCallBudget({ maxInFlight: 100, ratePerSecond: 10 }, timers);
    const startedAt = await flood(budget, timers, 35, 3_600);
    expect(busiestSecond(startedAt)).toBe(10);
    // 10 spread over 945 ms, then 10 more as each of those is a window (1 050 ms) old: the rate, less the 5 % guard.
    expect(startedAt.filter((at) => at < 3_000)).toHaveLength(30);
    expect(startedAt.slice(0, 3)).toEqual([0, 95, 190]);
  });

  it('spreads a rate below one call a second over a longer window', async () => {
    const timers = new ManualTimers();
    const budget = new BankCallBudget({ maxInFlight: 4, ratePerSecond: 0.5 }, timers);
    expect(budget.windowMs).toBe(2_100);
    expect(await flood(budget, timers, 3, 5_000)).toEqual([0, 2_100, 4_200]);
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
  });

  describe('shared by replicas', () => {
    it('takes its part of the rate: 50/s over four replicas is 13, 13, 12 and 12 a second', async () => {
      const timers = new ManualTimers();
      const four = [0, 1, 2, 3].map((rank) => {
        const budget = new BankCallBudget({ maxInFlight: 8, ratePerSecond: 50 }, timers);
        budget.setShare(rank, 4);
        return budget;
      });
      expect(four.map((budget) => budget.ratePerSecond)).toEqual([13, 13, 12, 12]);
      expect(four.map((budget) => budget.maxInFlight)).toEqual([2, 2, 2, 2]);
      const floods = four.map((budget) => flood(budget, timers, 50, 0));
      await flush();
      await timers.advance(4_500);
      const startedAt = (await Promise.all(floods)).flat();
      // Together never more than the deployment's rate in any second, and all of it.
      expect(busiestSecond(startedAt)).toBe(50);
      expect(startedAt.filter((at) => at < 3_000)).toHaveLength(150);
    });

    it('has each of more replicas than calls a second make a call per longer window', () => {
      const budget = new BankCallBudget({ maxInFlight: 8, ratePerSecond: 2 }, new ManualTimers());
      budget.setShare(3, 4);
      expect(budget.windowMs).toBe(2_100);
      expect(budget.callsPerWindow).toBe(1);
      expect(() => budget.setShare(4, 4)).toThrow(/rank must be a whole number in \[0, replicas\)/);
    });

    it('keeps an in-flight cap of at least 1 whatever the share', () => {
      const budget = new BankCallBudget({ maxInFlight: 2 });
      budget.setShare(7, 8);
      expect(budget.maxInFlight).toBe(1);
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

    it('counts a call in the rate from when its request is written, holding a place for it until then', async () => {
      const timers = new ManualTimers();
      const budget = new BankCallBudget({ maxInFlight: 10, ratePerSecond: 2 }, timers);
      // The bank's connection as a call sees it: its request is written (and answered at once) when the test says
      // so; the call is in flight until then.
      const unwritten: { written: () => void; answered: () => void }[] = [];
      const write = () => {
        const request = unwritten.shift();
        request?.written();
        request?.answered();
      };
      const started: number[] = [];
      const call = () =>
        budget.throttle(
          'query',
          (written) =>
            new Promise<void>((answered) => {
              started.push(timers.now());
              unwritten.push({ written, answered });
            }),
        );

      const calls = [call(), call(), call()];
      await timers.advance(5_000);
      // Two calls a window (1 050 ms): two started and unwritten hold both places, however long they wait.
      expect(started).toEqual([0, 473]);
      write();
      await timers.advance(1);
      expect(started).toHaveLength(2);
      // The first was written at 5 000 ms: its place frees a window later.
      await timers.advance(1_048);
      expect(started).toHaveLength(2);
      await timers.advance(1);
      expect(started).toEqual([0, 473, 6_050]);
      write();
      write();
      await Promise.all(calls);
    });

    it('holds its calls for holdFor(ms), or until the next hold when it has no end, telling no listener', async () => {
      const timers = new ManualTimers();
      const budget = new BankCallBudget({ maxInFlight: 4 }, timers);
      const pauses: number[] = [];
      budget.onPause((until) => pauses.push(until));
      budget.holdFor(Number.POSITIVE_INFINITY);
      const started: number[] = [];
      const call = budget.throttle('create', async () => {
        started.push(timers.now());
      });
      await timers.advance(10_000);
      expect(started).toEqual([]);
      expect(budget.heldUntil).toBe(Number.POSITIVE_INFINITY);
      budget.holdFor(500);
      expect(budget.heldUntil).toBe(10_500);
      await timers.advance(499);
      expect(started).toEqual([]);
      await timers.advance(1);
      await call;
      expect(started).toEqual([10_500]);
      expect(budget.heldUntil).toBeNull();
      expect(budget.pausedUntil).toBeNull();
      expect(pauses).toEqual([]);
      expect(() => budget.holdFor(-1)).toThrow('holdFor: ms must be ≥ 0, got -1');
    });

    it('starts held calls at once when the hold is released', async () => {
      const timers = new ManualTimers();
      const budget = new BankCallBudget({ maxInFlight: 4 }, timers);
      budget.holdFor(Number.POSITIVE_INFINITY);
      let started = false;
      const call = budget.throttle('query', async () => {
        started = true;
      });
      await timers.advance(1);
      expect(started).toBe(false);
      budget.holdFor(0);
      await call;
      expect(started).toBe(true);
    });
  });
});
