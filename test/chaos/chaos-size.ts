// How big a chaos run is: the CI size by default; `pnpm test:chaos -- --big` (CHAOS_BIG=1) for the big one;
// CHAOS_TRANSFERS and CHAOS_KILLS override either.

export interface ChaosSize {
  transfers: number;
  kills: number;
}

export function chaosSize(sizes: { ci: ChaosSize; big: ChaosSize }): ChaosSize {
  const base = process.env.CHAOS_BIG === '1' ? sizes.big : sizes.ci;
  return {
    transfers: positiveInteger('CHAOS_TRANSFERS') ?? base.transfers,
    kills: positiveInteger('CHAOS_KILLS') ?? base.kills,
  };
}

function positiveInteger(name: string): number | undefined {
  const value = process.env[name];
  if (value === undefined || value === '') return undefined;
  const number = Number(value);
  if (!Number.isSafeInteger(number) || number < 0) throw new Error(`${name} must be a whole number ≥ 0, got ${value}`);
  return number;
}
