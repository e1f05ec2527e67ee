import type { BenchResults } from './results';

/** One goal of issue 7 and where this run stands against it. */
export interface GoalResult {
  goal: string;
  target: string;
  /** The measured figure, rendered; `—` when it could not be measured. */
  measured: string;
  /** Null when the figure is missing (e.g. no Postgres server). */
  met: boolean | null;
}

const times = (value: number) => (Number.isFinite(value) ? `${value.toFixed(2)}×` : '—');
const ms = (value: number) => (Number.isFinite(value) ? `${Math.round(value)} ms` : '—');

function goal(goal: string, target: string, value: number, measured: string, passes: (value: number) => boolean) {
  return { goal, target, measured, met: Number.isFinite(value) ? passes(value) : null };
}

/** Issue 7's goals, checked against the figures of this run. */
export function evaluateGoals(results: Omit<BenchResults, 'goals'>): GoalResult[] {
  const { create, sweep, discipline } = results;
  const c = create.ratiosAtConcurrency;
  const scaling = sweep.postgres.scaling ?? Number.NaN;
  const [from, to] = sweep.rssGrowthBacklogs;
  const { minIntervalMs, delayedMinIntervalMs } = discipline.rules;
  const lagExcess = Math.max(discipline.lagP99Ms - minIntervalMs, discipline.delayedLagP99Ms - delayedMinIntervalMs);
  return [
    goal(`create vs limit (c=${c})`, '≥ 0.60×', create.ratioToLimit, times(create.ratioToLimit), (v) => v >= 0.6),
    goal(`create vs naive peer (c=${c})`, '≥ 4.00×', create.ratioToPeer, times(create.ratioToPeer), (v) => v >= 4),
    goal(
      `sweep vs limit, SQLite (${sweep.sqlite.ratioAtBacklog} due)`,
      '≥ 0.50×',
      sweep.sqlite.ratioToLimit,
      times(sweep.sqlite.ratioToLimit),
      (v) => v >= 0.5,
    ),
    goal('Postgres sweep, 4 processes ÷ 1', '≥ 3.00×', scaling, times(scaling), (v) => v >= 3),
    goal(`sweep peak RSS, ${to} ÷ ${from} due`, '≤ 1.20×', sweep.rssGrowth, times(sweep.rssGrowth), (v) => v <= 1.2),
    goal(
      'queries ÷ minimum the rules allow',
      '≤ 1.05×',
      discipline.queriesOverMinimum,
      times(discipline.queriesOverMinimum),
      (v) => v <= 1.05,
    ),
    goal(
      'detection lag p99 − interval',
      '≤ 1000 ms',
      lagExcess,
      `${ms(discipline.lagP99Ms)} − ${minIntervalMs} ms; DELAYED ${ms(discipline.delayedLagP99Ms)} − ${delayedMinIntervalMs} ms`,
      (v) => v <= 1000,
    ),
    goal('early queries', '0', discipline.earlyQueries, String(discipline.earlyQueries), (v) => v === 0),
  ];
}
