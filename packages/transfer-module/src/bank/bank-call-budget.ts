/**
 * One budget for every call this process makes to the bank: a token-bucket
 * rate limit plus a cap on calls in flight. Creations are served before
 * queries, so a backlog of lookups never delays a customer's transfer.
 *
 * The budget is per process: with N replicas, give each 1/N of the bank's
 * allowance. Polling discipline across replicas does not depend on it (that
 * is the lease and `nextQueryAt` in the database).
 */
export type BankCallPriority = 'create' | 'query';

export interface BankCallBudgetOptions {
  /** Calls allowed in flight at once (≥ 1). */
  maxInFlight: number;
  /** Calls started per second; omit for no rate limit. */
  ratePerSecond?: number;
  /** Calls that may start at once after an idle period; defaults to max(1, ratePerSecond). */
  burst?: number;
}

/** What the budget needs of time; injectable so tests run without sleeping. */
export interface BudgetTimers {
  now(): number;
  setTimeout(callback: () => void, ms: number): unknown;
}

const realTimers: BudgetTimers = {
  now: () => Date.now(),
  setTimeout: (callback, ms) => setTimeout(callback, ms).unref(),
};

interface Waiter {
  start: () => void;
}

export class BankCallBudget {
  private readonly queues: Record<BankCallPriority, Waiter[]> = { create: [], query: [] };
  private inFlightCount = 0;
  private tokens: number;
  private refilledAt: number;
  private wakeScheduled = false;
  private readonly capacity: number;

  constructor(
    private readonly options: BankCallBudgetOptions,
    private readonly timers: BudgetTimers = realTimers,
  ) {
    if (!Number.isInteger(options.maxInFlight) || options.maxInFlight < 1) {
      throw new RangeError(`maxInFlight must be a whole number ≥ 1, got ${options.maxInFlight}`);
    }
    if (options.ratePerSecond !== undefined && !(options.ratePerSecond > 0 && Number.isFinite(options.ratePerSecond))) {
      throw new RangeError(`ratePerSecond must be a positive number, got ${options.ratePerSecond}`);
    }
    if (options.burst !== undefined && !(Number.isInteger(options.burst) && options.burst >= 1)) {
      throw new RangeError(`burst must be a whole number ≥ 1, got ${options.burst}`);
    }
    this.capacity = options.burst ?? Math.max(1, Math.floor(options.ratePerSecond ?? 1));
    this.tokens = this.capacity;
    this.refilledAt = timers.now();
  }

  /** Runs `call` when the budget allows; its result or error passes through. */
  throttle<T>(priority: BankCallPriority, call: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queues[priority].push({
        start: () => {
          this.inFlightCount++;
          // A call that throws before returning its promise must still free its slot.
          new Promise<T>((settle) => settle(call())).then(resolve, reject).finally(() => {
            this.inFlightCount--;
            this.dispatch();
          });
        },
      });
      this.dispatch();
    });
  }

  get inFlight(): number {
    return this.inFlightCount;
  }

  /** Calls waiting for the budget, by priority. */
  get waiting(): Record<BankCallPriority, number> {
    return { create: this.queues.create.length, query: this.queues.query.length };
  }

  private dispatch(): void {
    while (this.inFlightCount < this.options.maxInFlight) {
      const next = this.queues.create[0] ? this.queues.create : this.queues.query[0] ? this.queues.query : undefined;
      if (!next) return;
      if (!this.takeToken()) {
        this.scheduleWake();
        return;
      }
      (next.shift() as Waiter).start();
    }
  }

  private takeToken(): boolean {
    const rate = this.options.ratePerSecond;
    if (rate === undefined) return true;
    const now = this.timers.now();
    this.tokens = Math.min(this.capacity, this.tokens + ((now - this.refilledAt) * rate) / 1000);
    this.refilledAt = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }

  private scheduleWake(): void {
    if (this.wakeScheduled) return;
    this.wakeScheduled = true;
    const rate = this.options.ratePerSecond as number;
    const msUntilToken = Math.max(1, Math.ceil(((1 - this.tokens) * 1000) / rate));
    this.timers.setTimeout(() => {
      this.wakeScheduled = false;
      this.dispatch();
    }, msUntilToken);
  }
}
