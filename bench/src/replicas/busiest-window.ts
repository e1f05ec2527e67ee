/** The most arrivals in any window of a given length, and where that window starts. */
export interface BusiestWindow {
  count: number;
  /** The first arrival of the window (epoch ms); undefined when there were none. */
  startMs: number | undefined;
}

/**
 * The busiest sliding window of `windowMs` over arrival times (epoch ms, any order): the most arrivals in any
 * half-open interval [t, t + windowMs). A bank that limits calls per second with a sliding window counts this
 * way; fixed calendar seconds would hide a burst that straddles two of them. Only windows starting at an arrival
 * need checking: sliding any other window forward to its first arrival loses none.
 */
export function busiestWindow(timesMs: readonly number[], windowMs = 1_000): BusiestWindow {
  const sorted = [...timesMs].sort((a, b) => a - b);
  let best: BusiestWindow = { count: 0, startMs: undefined };
  let end = 0;
  for (let start = 0; start < sorted.length; start++) {
    while (end < sorted.length && sorted[end] < sorted[start] + windowMs) end++;
    if (end - start > best.count) best = { count: end - start, startMs: sorted[start] };
  }
  return best;
}

/** Arrivals per second within [fromMs, toMs). */
export function ratePerSecondWithin(timesMs: readonly number[], fromMs: number, toMs: number): number {
  if (!(toMs > fromMs)) throw new RangeError(`an empty interval: [${fromMs}, ${toMs})`);
  const within = timesMs.filter((at) => at >= fromMs && at < toMs).length;
  return (within * 1_000) / (toMs - fromMs);
}
