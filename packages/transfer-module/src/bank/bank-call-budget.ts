import { BankRateLimitedError } from './bank.errors';

/**
 * One budget for every call this process makes to the bank: a rate limit plus
 * a cap on calls in flight. Creations are served before queries, so a backlog
 * of lookups never delays a customer's transfer.
 *
 * The rate is a sliding window: at most `ratePerSecond` calls are written to
 * the bank in any 1 050 ms, wherever that window begins, so that at most that
 * many reach it in any second, however their delays on the way vary by up to
 * 50 ms — which is how banks state their limits. A token bucket would allow
 * its burst on top of its rate within one second: up to twice the rate at the
 * bank. The price is 5 % of the rate. A call is counted from when undici
 * writes it (the `written` it is given, which it hands to BankClient as
 * `onWritten`): a call waiting for a new TLS connection can be
 * written 100 ms or more after it started, together with later ones. Until
 * then it takes a place in every window, as it may be written at any moment.
 *
 * The options are the deployment's: with N live replicas on one database each
 * process takes its part (`setShare(rank, N)`, kept by ReplicaHeartbeat) — the
 * whole calls of a window divided among them, the remainder to the first ones
 * by rank —, so together they never start more than the rate in any window.
 * A 429 with Retry-After pauses the whole budget until then (and, through the
 * heartbeat, every replica's). Polling discipline across replicas does not
 * depend on it (that is the lease and `nextQueryAt` in the database).
 */
export type BankCallPriority = 'create' | 'query';

export interface BankCallBudgetOptions {
  /** Calls allowed in flight at once (≥ 1; TransferModule's `budget` has default 8). */
  maxInFlight: number;
  /** Calls started in any second; omit for no rate limit. */
  ratePerSecond?: number;
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

const SECOND_MS = 1_000;
/** How much longer than the rate's second the window is: the spread of the calls' delays on their way to the bank. */
const WINDOW_GUARD = 0.05;
/** The share of a window its calls are paced over (the rest leaves room for timers that fire late). */
const PACING = 0.9;
/** The calls that may start together within the pace: a tenth of the window's, at least 1. */
const PACE_BURST_SHARE = 0.1;

export class BankCallBudget {
  private readonly queues: Record<BankCallPriority, Waiter[]> = { create: [], query: [] };
  private inFlightCount = 0;
  /**
   * When the calls of the current window were written to the bank (epoch ms, oldest first). A call that ended
   * without saying so (it failed before it was written, or made no request) is counted from its end.
   */
  private readonly recentSends: number[] = [];
  /** Calls started and not written yet: each may be written at any moment, so each takes a place in the window. */
  private unsentCount = 0;
  /** Calls the pace allows now (a small bucket refilled at the window's pace) and when it was last refilled. */
  private paceTokens = 1;
  private pacedAt: number;
  private wakeScheduled = false;
  /** This process's place among the live replicas (ReplicaHeartbeat sets it; alone: 0 of 1). */
  private rank = 0;
  private replicas = 1;
  /** No call starts before then (epoch ms): the bank asked to wait (429 with Retry-After). */
  private pausedUntilMs = 0;
  /** No call starts before then either (epoch ms; Infinity: until released): this process's own hold, not the bank's. */
  private heldUntilMs = 0;
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
    this.pacedAt = timers.now();
  }

  /**
   * This process is replica `rank` (0-based, in an order every replica agrees on) of `replicas` live ones: it takes
   * its part of the options' rate and in-flight cap. Each part is the whole divided by `replicas`, the remainder
   * going one each to the first ranks, so the parts add up to the whole; the in-flight part is at least 1, so each
   * replica can always make progress.
   */
  setShare(rank: number, replicas: number): void {
    if (!(Number.isInteger(replicas) && replicas >= 1 && Number.isInteger(rank) && rank >= 0 && rank < replicas)) {
      throw new RangeError(`setShare: rank must be a whole number in [0, replicas), got ${rank} of ${replicas}`);
    }
    if (rank === this.rank && replicas === this.replicas) return;
    this.rank = rank;
    this.replicas = replicas;
    this.dispatch();
  }

  /** No call starts before `untilMs` (epoch ms, the budget's clock); a later pause extends it, an earlier one is ignored. */
  pauseUntil(untilMs: number): void {
    if (untilMs <= this.pausedUntilMs) return;
    this.pausedUntilMs = untilMs;
    for (const listener of this.pauseListeners) listener(untilMs);
  }

  /**
   * No call of this process starts for `ms` (Infinity: until the next hold replaces this one; 0 releases it). Unlike
   * a pause, it is this process's alone: no other replica is told. ReplicaHeartbeat holds a joining replica's calls
   * until the others have made room for its share.
   */
  holdFor(ms: number): void {
    if (!(ms >= 0)) throw new RangeError(`holdFor: ms must be ≥ 0, got ${ms}`);
    this.heldUntilMs = this.timers.now() + ms;
    this.dispatch();
  }

  /** When this process's calls may start after its hold (Infinity: not yet known), or null when none holds them. */
  get heldUntil(): number | null {
    return this.heldUntilMs > this.timers.now() ? this.heldUntilMs : null;
  }

  /** Called with the new end of each pause this budget takes (a 429 here, or one another replica reported). */
  onPause(listener: (untilMs: number) => void): void {
    this.pauseListeners.push(listener);
  }

  /** The in-flight cap in force: this replica's part of the options', at least 1. */
  get maxInFlight(): number {
    return Math.max(1, this.partOf(this.options.maxInFlight));
  }

  /**
   * The window the rate is kept over: a second, or longer when there are more replicas than calls a second (each
   * one needs at least one call per window: 0.5 calls/s alone is 1 call every 2 s) — and 5 % more (WINDOW_GUARD):
   * a call reaches the bank some milliseconds after it starts, not always the same number, so the calls of a
   * window of 1 050 ms are what can land in one second at the bank.
   */
  get windowMs(): number {
    return Math.ceil(this.countedWindowMs * (1 + WINDOW_GUARD));
  }

  /** Calls this replica may start in any window (`windowMs`), or undefined without a rate limit. */
  get callsPerWindow(): number | undefined {
    const rate = this.options.ratePerSecond;
    return rate === undefined ? undefined : this.partOf(Math.floor((rate * this.countedWindowMs) / SECOND_MS));
  }

  /** The span whose calls `callsPerWindow` counts: a second, or longer with more replicas than calls a second. */
  private get countedWindowMs(): number {
    const rate = this.options.ratePerSecond;
    if (rate === undefined) return SECOND_MS;
    // Rounded up, so that the window's whole calls (rate × window) are at least one per replica.
    return Math.max(SECOND_MS, Math.ceil((SECOND_MS * this.replicas) / rate));
  }

  /** This replica's part of the rate (calls per second, before the guard), or undefined without a rate limit. */
  get ratePerSecond(): number | undefined {
    const calls = this.callsPerWindow;
    return calls === undefined ? undefined : (calls * SECOND_MS) / this.countedWindowMs;
  }

  /** When calls may start again after a pause, or null when none holds them (epoch ms, the budget's clock). */
  get pausedUntil(): number | null {
    return this.pausedUntilMs > this.timers.now() ? this.pausedUntilMs : null;
  }

  /**
   * Runs `call` when the budget allows; its result or error passes through. `call` is given `written`, to be told
   * each time one of its requests is written to the bank (BankClient's `onWritten`); a call that never tells is
   * counted from its end.
   */
  throttle<T>(priority: BankCallPriority, call: (written: () => void) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queues[priority].push({
        start: () => {
          this.inFlightCount++;
          this.unsentCount++;
          let written = false;
          const countSend = () => {
            if (!written) this.unsentCount--;
            written = true;
            // A second request of one call (a retry after a 401) reaches the bank too: counted as well.
            this.recentSends.push(this.timers.now());
            // Not from inside undici's write: a waiter may now know when the window frees a place.
            queueMicrotask(() => this.dispatch());
          };
          // A call that throws before returning its promise must still free its slot.
          new Promise<T>((settle) => settle(call(countSend)))
            .then(resolve, (error: unknown) => {
              // The bank asked everyone to wait: no call of this budget starts before then.
              if (error instanceof BankRateLimitedError && error.retryAfterMs !== undefined) {
                this.pauseUntil(this.timers.now() + error.retryAfterMs);
              }
              reject(error);
            })
            .finally(() => {
              if (!written) countSend();
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
      const resumeAtMs = Math.max(this.pausedUntilMs, this.heldUntilMs);
      if (resumeAtMs > this.timers.now()) {
        // A hold without an end is lifted by the next holdFor, which dispatches.
        if (resumeAtMs !== Number.POSITIVE_INFINITY) this.scheduleWakeAt(resumeAtMs - this.timers.now());
        return;
      }
      const waitMs = this.waitForSlot();
      if (waitMs > 0) {
        // Full of calls not written yet: the next write (or end) dispatches again.
        if (waitMs !== Number.POSITIVE_INFINITY) this.scheduleWakeAt(waitMs);
        return;
      }
      (next.shift() as Waiter).start();
    }
  }

  /** This replica's part of `whole`: the whole divided among the replicas, one more for the first ranks. */
  private partOf(whole: number): number {
    return Math.floor(whole / this.replicas) + (this.rank < whole % this.replicas ? 1 : 0);
  }

  /**
   * 0 when the window has room for one more call and the pace allows it (taking the pace's token); otherwise how
   * long to wait (ms), Infinity until a call not written yet is.
   */
  private waitForSlot(): number {
    const calls = this.callsPerWindow;
    if (calls === undefined) return 0;
    const now = this.timers.now();
    const windowMs = this.windowMs;
    // A call written a whole window ago no longer counts: no window holds both it and one written from now on.
    while (this.recentSends.length > 0 && this.recentSends[0] + windowMs <= now) this.recentSends.shift();
    if (this.recentSends.length + this.unsentCount >= calls) {
      return this.recentSends.length > 0 ? this.recentSends[0] + windowMs - now : Number.POSITIVE_INFINITY;
    }
    // A window's calls are paced over most of it rather than started at once: a burst opens many connections
    // together, and their handshakes spread the calls' arrivals at the bank by more than the window's guard. A
    // bucket, not a fixed gap after the last call, so that a timer firing late is made up at the next call.
    const perMs = calls / (windowMs * PACING);
    const burst = Math.max(1, Math.ceil(calls * PACE_BURST_SHARE));
    this.paceTokens = Math.min(burst, this.paceTokens + (now - this.pacedAt) * perMs);
    this.pacedAt = now;
    if (this.paceTokens < 1) return Math.ceil((1 - this.paceTokens) / perMs);
    this.paceTokens -= 1;
    return 0;
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
