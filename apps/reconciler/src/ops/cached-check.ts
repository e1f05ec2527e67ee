/**
 * The outcome of a check, kept for `ttlMs`: calls within that time share one run (and its outcome, success or
 * failure) instead of starting their own. `now` is injectable for tests.
 */
export class CachedCheck<T> {
  private last: { at: number; outcome: Promise<T> } | undefined;

  constructor(
    private readonly run: () => Promise<T>,
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  get(): Promise<T> {
    const now = this.now();
    if (this.last === undefined || now - this.last.at >= this.ttlMs) {
      const outcome = this.run();
      // A failure is an answer to give, not an unhandled rejection while no caller waits.
      outcome.catch(() => undefined);
      this.last = { at: now, outcome };
    }
    return this.last.outcome;
  }
}
