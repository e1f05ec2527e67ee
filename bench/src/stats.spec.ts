import { percentile, ratePerSecond, ratio, summarizeLatencies } from './stats';

describe('percentile', () => {
  it('takes the nearest rank, whatever the order of the samples', () => {
    const samples = Array.from({ length: 100 }, (_, index) => 100 - index); // 100 … 1
    expect(percentile(samples, 0.5)).toBe(50);
    expect(percentile(samples, 0.99)).toBe(99);
    expect(percentile(samples, 1)).toBe(100);
    expect(percentile(samples, 0)).toBe(1);
  });

  it('is the only sample of one, and NaN of none', () => {
    expect(percentile([7], 0.99)).toBe(7);
    expect(percentile([], 0.5)).toBeNaN();
  });

  it('does not reorder the caller’s array', () => {
    const samples = [3, 1, 2];
    summarizeLatencies(samples);
    expect(samples).toEqual([3, 1, 2]);
  });
});

describe('rates and ratios', () => {
  it('counts operations per second', () => {
    expect(ratePerSecond(500, 250)).toBe(2000);
    expect(ratePerSecond(1, 0)).toBeNaN();
  });

  it('is NaN instead of Infinity or a ratio of missing figures', () => {
    expect(ratio(3, 4)).toBe(0.75);
    expect(ratio(3, 0)).toBeNaN();
    expect(ratio(Number.NaN, 2)).toBeNaN();
  });
});
