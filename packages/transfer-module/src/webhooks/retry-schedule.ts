/** What becomes of a delivery after a failed attempt: tried again at `atMs`, or given up. */
export type AfterFailure = { kind: 'retry'; atMs: number } | { kind: 'dead' };

/**
 * The waits between attempts (ResolvedWebhookOptions.retryDelaysMs): attempt n + 1 waits delays[n - 1], plus up
 * to 10 % of jitter so that the deliveries of an outage do not all come back at once. A receiver's Retry-After
 * (429, 503) lengthens a wait, never shortens it, up to the longest wait of the schedule.
 */
export class RetrySchedule {
  private readonly longestMs: number;

  constructor(
    private readonly delaysMs: readonly number[],
    private readonly random: () => number = Math.random,
  ) {
    this.longestMs = Math.max(0, ...delaysMs);
  }

  /** Every attempt there will be: the first and one per wait. */
  get maxAttempts(): number {
    return this.delaysMs.length + 1;
  }

  /** After the `attempts`-th attempt failed at `nowMs`. */
  afterFailure(attempts: number, nowMs: number, retryAfterMs?: number): AfterFailure {
    const delay = this.delaysMs[attempts - 1];
    if (delay === undefined) return { kind: 'dead' };
    const jittered = delay + Math.floor(delay * 0.1 * this.random());
    const wait = retryAfterMs === undefined ? jittered : Math.max(jittered, Math.min(retryAfterMs, this.longestMs));
    return { kind: 'retry', atMs: nowMs + wait };
  }
}

/** A Retry-After header (seconds, or an HTTP date) in milliseconds from `nowMs`; undefined when absent or bad. */
export function parseRetryAfter(value: string | string[] | undefined, nowMs: number): number | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  if (text === undefined) return undefined;
  if (/^\s*\d{1,9}\s*$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - nowMs);
}
