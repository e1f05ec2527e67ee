import { BankRateLimitedError } from './bank.errors';

/**
 * One budget for every call this process makes to the bank: a token-bucket
 * rate limit plus a cap on calls in flight. Creations are served before
 * queries, so a backlog of lookups never delays a customer's transfer.
 *
 * The options are the deployment's: with N live replicas on one database each
 * process takes its share (`setShare(1 / N)`, kept by ReplicaHeartbeat), so
 * together they stay within the bank's allowance. A 429 with Retry-After
 * pauses the whole budget until then (and, through the heartbeat, every
 * replica's). Polling discipline across replicas does not depend on it (that
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
  private capacity: number;
  /** This process's part of the options' limits (ReplicaHeartbeat sets it; 1 alone). */
  private share = 1;
  /** No call starts before then (epoch ms): the bank asked to wait (429 with Retry-After). */
  private pausedUntilMs = 0;
  private readonly pauseListeners: ((untilMs: number) => void)[] = [];

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
    this.capacity = this.capacityFor(1);
    this.tokens = this.capacity;
    this.refilledAt = timers.now();
  }

  /**
   * Takes `share` (0 < share ≤ 1) of the options' rate and in-flight cap: this process's part when replicas share
   * the bank's allowance. The in-flight cap is at least 1, so each replica can always make progress.
   */
  setShare(share: number): void {
    if (!(share > 0 && share <= 1)) throw new RangeError(`share must be in (0, 1], got ${share}`);
    if (share === this.share) return;
    this.refill();
    this.share = share;
    this.capacity = this.capacityFor(share);
    this.tokens = Math.min(this.tokens, this.capacity);
    this.dispatch();
  }

  /** No call starts before `untilMs` (epoch ms, the budget's clock); a later pause extends it, an earlier one is ignored. */
  pauseUntil(untilMs: number): void {
    if (untilMs <= this.pausedUntilMs) return;
    this.pausedUntilMs = untilMs;
    for (const listener of this.pauseListeners) listener(untilMs);
  }

  /** Called with the new end of each pause this budget takes (a 429 here, or one another replica reported). */
  onPause(listener: (untilMs: number) => void): void {
    this.pauseListeners.push(listener);
  }

  /** The in-flight cap in force: the options' share, at least 1. */
  get maxInFlight(): number {
    return Math.max(1, Math.floor(this.options.maxInFlight * this.share));
  }

  /** The rate in force (calls per second), or undefined without a rate limit. */
  get ratePerSecond(): number | undefined {
    return this.options.ratePerSecond === undefined ? undefined : this.options.ratePerSecond * this.share;
  }

  /** When calls may start again after a pause, or null when none holds them (epoch ms, the budget's clock). */
  get pausedUntil(): number | null {
    return this.pausedUntilMs > this.timers.now() ? this.pausedUntilMs : null;
  }

  /** Runs `call` when the budget allows; its result or error passes through. */
  throttle<T>(priority: BankCallPriority, call: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queues[priority].push({
        start: () => {
          this.inFlightCount++;
          // A call that throws before returning its promise must still free its slot.
          new Promise<T>((settle) => settle(call()))
            .then(resolve, (error: unknown) => {
              // The bank asked everyone to wait: no call of this budget starts before then.
              if (error instanceof BankRateLimitedError && error.retryAfterMs !== undefined) {
                this.pauseUntil(this.timers.now() + error.retryAfterMs);
              }
              reject(error);
            })
            .finally(() => {
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
    while (this.inFlightCount < this.maxInFlight) {
      const next = this.queues.create[0] ? this.queues.create : this.queues.query[0] ? this.queues.query : undefined;
      if (!next) return;
      if (this.pausedUntilMs > this.timers.now()) {
        this.scheduleWakeAt(this.pausedUntilMs - this.timers.now());
        return;
      }
      if (!this.takeToken()) {
        this.scheduleWake();
        return;
      }
      (next.shift() as Waiter).start();
    }
  }

  private capacityFor(share: number): number {
    const rate = this.options.ratePerSecond;
    return this.options.burst !== undefined
      ? Math.max(1, Math.floor(this.options.burst * share))
      : Math.max(1, Math.floor((rate ?? 1) * share));
  }

  private refill(): void {
    const rate = this.ratePerSecond;
    const now = this.timers.now();
    if (rate !== undefined)
      this.tokens = Math.min(this.capacity, this.tokens + ((now - this.refilledAt) * rate) / 1000);
    this.refilledAt = now;
  }

  private takeToken(): boolean {
    if (this.ratePerSecond === undefined) return true;
    this.refill();
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }

  private scheduleWake(): void {
    const rate = this.ratePerSecond as number;
    this.scheduleWakeAt(Math.max(1, Math.ceil(((1 - this.tokens) * 1000) / rate)));
  }

  private scheduleWakeAt(ms: number): void {
    if (this.wakeScheduled) return;
    this.wakeScheduled = true;
    this.timers.setTimeout(
      () => {
        this.wakeScheduled = false;
        this.dispatch();
      },
      Math.max(1, ms),
    );
  }
}
