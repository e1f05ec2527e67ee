/** How long one caller's repeated refusals of one kind are summarised together. */
export const REFUSAL_WINDOW_MS = 60_000;
/** Refusals of one kind a caller gets a row each for, per window; the rest are counted. 429: the first only. */
export const ROWS_PER_WINDOW = { tooManyRequests: 1, other: 20 } as const;
/** Kinds followed at once; past it, new kinds share one count, so memory stays bounded under any flood. */
const MAX_KINDS = 10_000;
const OVERFLOW_KIND = '*';

/** What a summary row says of the refusals it stands for. */
export interface RefusalCount<Sample> {
  /** The last refusal counted: who, what, from where, and why. */
  sample: Sample;
  count: number;
  firstAt: number;
  lastAt: number;
}

interface Window<Sample> {
  startedAt: number;
  rows: number;
  counted: RefusalCount<Sample> | undefined;
}

/**
 * Which refusals get a row of their own and which are only counted, so that a flood (a client past its rate
 * limit, a loop of bad requests) adds a few rows a minute, not one per request. A kind is one caller (a key, or an
 * address without one), one status and one route: within a window its first ROWS_PER_WINDOW refusals get rows,
 * the rest are counted, and the count becomes one summary row once the window is over (`expired`) or the
 * application stops (`drain`).
 */
export class RefusalSummaries<Sample> {
  private readonly windows = new Map<string, Window<Sample>>();

  /** True when this refusal gets a row of its own; false when it was counted for the summary. */
  admit(kind: string, statusCode: number, sample: Sample, now: number): boolean {
    const tracked = this.windows.has(kind) || this.windows.size < MAX_KINDS ? kind : OVERFLOW_KIND;
    let window = this.windows.get(tracked);
    if (window === undefined) {
      window = { startedAt: now, rows: 0, counted: undefined };
      this.windows.set(tracked, window);
    }
    const limit = statusCode === 429 ? ROWS_PER_WINDOW.tooManyRequests : ROWS_PER_WINDOW.other;
    if (tracked !== OVERFLOW_KIND && window.rows < limit) {
      window.rows += 1;
      return true;
    }
    window.counted = {
      sample,
      count: (window.counted?.count ?? 0) + 1,
      firstAt: window.counted?.firstAt ?? now,
      lastAt: now,
    };
    return false;
  }

  /** The counts of the windows over at `now` (those windows forgotten). */
  expired(now: number): RefusalCount<Sample>[] {
    const over: RefusalCount<Sample>[] = [];
    for (const [kind, window] of this.windows) {
      if (now - window.startedAt < REFUSAL_WINDOW_MS) continue;
      this.windows.delete(kind);
      if (window.counted !== undefined) over.push(window.counted);
    }
    return over;
  }

  /** Every count not yet summarised (all windows forgotten). */
  drain(): RefusalCount<Sample>[] {
    const all = [...this.windows.values()].flatMap((window) => (window.counted === undefined ? [] : [window.counted]));
    this.windows.clear();
    return all;
  }
}
