import type { MeasurePlan } from './search-measure';

export type SearchMode = 'quick' | 'standard' | 'full';

export interface SearchPlan {
  mode: SearchMode;
  sqliteMovements: number;
  postgresMovements: number;
  measure: MeasurePlan;
  /** Keep the seeded databases (SQLite file in the temp directory, Postgres database) and reuse them next time. */
  keep: boolean;
  engines: ('sqlite' | 'postgres')[];
}

export const SEARCH_USAGE =
  'usage: search-main [--quick | --full] [--keep] [--only sqlite|postgres]  (--keep: leave the seeded databases and reuse them)';

/** The plan for `args`; throws with the usage on anything else. */
export function searchPlanFromArgs(args: readonly string[]): SearchPlan {
  const onlyAt = args.indexOf('--only');
  const unknown = args.filter(
    (arg, index) =>
      !['--quick', '--full', '--keep'].includes(arg) && !(onlyAt !== -1 && (index === onlyAt || index === onlyAt + 1)),
  );
  if (unknown.length > 0) throw new Error(`unknown argument ${unknown.join(' ')}\n${SEARCH_USAGE}`);
  if (args.includes('--quick') && args.includes('--full'))
    throw new Error(`--quick and --full exclude each other\n${SEARCH_USAGE}`);
  const only = onlyAt === -1 ? undefined : args[onlyAt + 1];
  if (only !== undefined && only !== 'sqlite' && only !== 'postgres') throw new Error(SEARCH_USAGE);
  const mode: SearchMode = args.includes('--quick') ? 'quick' : args.includes('--full') ? 'full' : 'standard';
  const quick = mode === 'quick';
  return {
    mode,
    // The sizes (1 M on SQLite, 10 M on Postgres) in the standard and full runs.
    sqliteMovements: quick ? 100_000 : 1_000_000,
    postgresMovements: quick ? 1_000_000 : 10_000_000,
    measure: { runs: 200, warmup: quick ? 10 : 20, maxSecondsPerKind: quick ? 10 : 30 },
    keep: args.includes('--keep'),
    engines: only ? [only] : ['sqlite', 'postgres'],
  };
}
