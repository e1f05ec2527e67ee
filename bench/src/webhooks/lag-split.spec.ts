import { splitLags } from './lag-split';

describe('splitLags', () => {
  it("splits each event's lag at its commit: the write part before, the delivery part after", () => {
    // Transfer 1 waited 900 ms for a connection and its commit, then arrived 40 ms after it; transfer 2 5 and 10 ms.
    const committed = new Map([
      [1, 1_900],
      [2, 1_005],
    ]);
    const split = splitLags(
      [
        [1, 1_940, 1_000],
        [2, 1_015, 1_000],
      ],
      committed,
      1_000,
    );
    expect(split.delivery).toEqual({ p50Ms: 10, p99Ms: 40 });
    expect(split.write).toEqual({ p50Ms: 5, p99Ms: 900 });
    expect(split.fromChange).toEqual({ p50Ms: 15, p99Ms: 940 });
  });

  it('gives the rate the events were committed at, from the start of the run to the last commit', () => {
    const committed = new Map(Array.from({ length: 100 }, (_, index) => [index, 1_000 + 20 * (index + 1)] as const));
    // 100 events, the last committed 2 s after the start: 50 per second, whatever rate was asked.
    expect(splitLags([], committed, 1_000).committedPerSecond).toBe(50);
  });

  it('refuses an arrival the run did not commit rather than leave it out', () => {
    expect(() => splitLags([[7, 2_000, 1_000]], new Map([[1, 1_500]]), 1_000)).toThrow(/transfer 7 arrived/);
  });
});
