import { evaluateGoals } from './goals';
import type { BenchResults } from './results';

type Figures = Omit<BenchResults, 'goals'>;

/** Just the figures the goals read; everything else of a run is irrelevant here. */
function figures(overrides: {
  createToLimit?: number;
  createToPeer?: number;
  sweepToLimit?: number;
  scaling?: number | null;
  rssGrowth?: number;
  queriesOverMinimum?: number;
  lagP99Ms?: number;
  delayedLagP99Ms?: number;
  earlyQueries?: number;
}): Figures {
  return {
    create: {
      ratiosAtConcurrency: 64,
      ratioToLimit: overrides.createToLimit ?? 0.7,
      ratioToPeer: overrides.createToPeer ?? 5,
    },
    sweep: {
      sqlite: { ratioAtBacklog: 100_000, ratioToLimit: overrides.sweepToLimit ?? 0.6 },
      postgres:
        overrides.scaling === null ? { skipped: 'no server', scaling: null } : { scaling: overrides.scaling ?? 3.5 },
      rssGrowth: overrides.rssGrowth ?? 1.1,
      rssGrowthBacklogs: [10_000, 1_000_000],
    },
    discipline: {
      rules: { minIntervalMs: 1_000, delayedMinIntervalMs: 4_000 },
      queriesOverMinimum: overrides.queriesOverMinimum ?? 1,
      lagP99Ms: overrides.lagP99Ms ?? 1_500,
      delayedLagP99Ms: overrides.delayedLagP99Ms ?? 4_500,
      earlyQueries: overrides.earlyQueries ?? 0,
    },
  } as unknown as Figures;
}

const verdicts = (input: Figures) => evaluateGoals(input).map((goal) => goal.met);

describe('evaluateGoals', () => {
  it('meets every goal when every figure is within its target', () => {
    expect(verdicts(figures({}))).toEqual([true, true, true, true, true, true, true, true]);
  });

  it('fails each goal on its own figure, at the edge of its target', () => {
    expect(verdicts(figures({ createToLimit: 0.59 }))[0]).toBe(false);
    expect(verdicts(figures({ createToLimit: 0.6 }))[0]).toBe(true);
    expect(verdicts(figures({ createToPeer: 3.99 }))[1]).toBe(false);
    expect(verdicts(figures({ sweepToLimit: 0.49 }))[2]).toBe(false);
    expect(verdicts(figures({ scaling: 2.9 }))[3]).toBe(false);
    expect(verdicts(figures({ rssGrowth: 1.21 }))[4]).toBe(false);
    expect(verdicts(figures({ queriesOverMinimum: 1.06 }))[5]).toBe(false);
    expect(verdicts(figures({ earlyQueries: 1 }))[7]).toBe(false);
  });

  it('holds the lag of both intervals to the interval + 1 s', () => {
    expect(verdicts(figures({ lagP99Ms: 2_000 }))[6]).toBe(true);
    expect(verdicts(figures({ lagP99Ms: 2_001 }))[6]).toBe(false);
    expect(verdicts(figures({ delayedLagP99Ms: 5_001 }))[6]).toBe(false);
  });

  it('says "not measured" (null) for a figure the run could not measure, never a pass', () => {
    const goals = evaluateGoals(figures({ scaling: null, sweepToLimit: Number.NaN }));
    expect(goals[3]).toMatchObject({ met: null, measured: '—' });
    expect(goals[2]).toMatchObject({ met: null, measured: '—' });
  });
});
