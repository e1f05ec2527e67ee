/** The value below which `fraction` of the samples fall (nearest rank); NaN for no samples. */
export function percentile(samples: readonly number[], fraction: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.ceil(fraction * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1];
}

export interface LatencySummary {
  p50Ms: number;
  p99Ms: number;
}

export function summarizeLatencies(samplesMs: readonly number[]): LatencySummary {
  return { p50Ms: percentile(samplesMs, 0.5), p99Ms: percentile(samplesMs, 0.99) };
}

/** Operations per second; NaN when no time passed. */
export function ratePerSecond(operations: number, durationMs: number): number {
  return durationMs > 0 ? (operations * 1000) / durationMs : Number.NaN;
}

/** a ÷ b, NaN unless both are finite and b is not 0. */
export function ratio(a: number, b: number): number {
  return Number.isFinite(a) && Number.isFinite(b) && b !== 0 ? a / b : Number.NaN;
}
