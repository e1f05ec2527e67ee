import { REFUSAL_WINDOW_MS, RefusalSummaries, ROWS_PER_WINDOW } from './refusal-summaries';

// A flood of refusals of one kind is a few rows a minute: the first ones each, the rest as one count.

describe('RefusalSummaries', () => {
  it('admits the first 429 of a window and counts the rest into one summary when the window is over', () => {
    const summaries = new RefusalSummaries<string>();
    const admitted = Array.from({ length: 500 }, (_, index) =>
      summaries.admit('key a', 429, `#${index}`, 1000 + index),
    );
    expect(admitted.filter(Boolean)).toHaveLength(ROWS_PER_WINDOW.tooManyRequests);
    expect(summaries.expired(1000 + REFUSAL_WINDOW_MS - 1)).toEqual([]);
    expect(summaries.expired(1000 + REFUSAL_WINDOW_MS)).toEqual([
      { sample: '#499', count: 499, firstAt: 1001, lastAt: 1499 },
    ]);
    // A new window: its first refusal has a row again.
    expect(summaries.admit('key a', 429, 'next', 1000 + REFUSAL_WINDOW_MS)).toBe(true);
  });

  it('admits more of other refusals, and keeps kinds apart', () => {
    const summaries = new RefusalSummaries<string>();
    const admitted = Array.from({ length: 50 }, () => summaries.admit('key a 400', 400, 'x', 0));
    expect(admitted.filter(Boolean)).toHaveLength(ROWS_PER_WINDOW.other);
    expect(summaries.admit('key b 400', 400, 'y', 0)).toBe(true);
    expect(summaries.drain()).toEqual([{ sample: 'x', count: 50 - ROWS_PER_WINDOW.other, firstAt: 0, lastAt: 0 }]);
    expect(summaries.drain()).toEqual([]);
  });

  it('writes no summary for a window whose refusals all had rows', () => {
    const summaries = new RefusalSummaries<string>();
    summaries.admit('key a', 429, 'only', 0);
    expect(summaries.expired(REFUSAL_WINDOW_MS)).toEqual([]);
  });

  it('stays bounded under many kinds: past the limit, new kinds share one count', () => {
    const summaries = new RefusalSummaries<number>();
    let rows = 0;
    for (let index = 0; index < 12_000; index++) if (summaries.admit(`address ${index}`, 429, index, 0)) rows++;
    expect(rows).toBe(10_000);
    expect(summaries.drain()).toEqual([{ sample: 11_999, count: 2_000, firstAt: 0, lastAt: 0 }]);
  });
});
