import { busiestWindow, ratePerSecondWithin } from './busiest-window';

describe('busiestWindow', () => {
  it('is empty without arrivals', () => {
    expect(busiestWindow([])).toEqual({ count: 0, startMs: undefined });
  });

  it('finds a burst that straddles two calendar seconds', () => {
    // 4 in the second 0–999 and 4 in 1000–1999, but 7 within the second from 900.
    const times = [100, 900, 950, 990, 1_010, 1_050, 1_500, 1_800];
    expect(busiestWindow(times)).toEqual({ count: 7, startMs: 900 });
  });

  it('counts a window half-open: an arrival exactly one window later is outside', () => {
    expect(busiestWindow([0, 500, 1_000]).count).toBe(2);
    expect(busiestWindow([0, 500, 999]).count).toBe(3);
  });

  it('takes arrivals in any order and any window length', () => {
    expect(busiestWindow([40, 10, 30, 20, 200], 50)).toEqual({ count: 4, startMs: 10 });
  });

  it('matches a brute-force count over every window start', () => {
    const times = Array.from({ length: 300 }, (_, i) => Math.floor(Math.abs(Math.sin(i * 7.3)) * 5_000));
    let expected = 0;
    for (const start of times)
      expected = Math.max(expected, times.filter((t) => t >= start && t < start + 1_000).length);
    expect(busiestWindow(times).count).toBe(expected);
  });
});

describe('ratePerSecondWithin', () => {
  it('counts arrivals in [from, to) per second', () => {
    expect(ratePerSecondWithin([0, 999, 1_000, 1_500, 2_000, 2_500], 1_000, 3_000)).toBe(2);
  });

  it('refuses an empty interval', () => {
    expect(() => ratePerSecondWithin([1], 5, 5)).toThrow(RangeError);
  });
});
