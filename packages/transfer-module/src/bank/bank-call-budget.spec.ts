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
});
