import type { BenchHmac } from './bank/raw-signing';

/** How much of each benchmark a run does: `--quick` (under 3 minutes), the default, or `--full`. */
export type BenchMode = 'quick' | 'standard' | 'full';

/**
 * `--only create`: the create section alone; `--only sweep`: the sweep section alone (SQLite and Postgres);
 * `--only postgres-sweep`: its Postgres runs alone. Their figures go to stdout and the log, not into BENCHMARKS.md
 * or the results files (a partial run is not a report): a way to measure one change to a hot path quickly.
 */
export type BenchSection = 'create' | 'sweep' | 'postgres-sweep';
const SECTIONS: readonly BenchSection[] = ['create', 'sweep', 'postgres-sweep'];

export interface BenchPlan {
  mode: BenchMode;
  /** Workers run with --cpu-prof, profiles written beside the results (`--profile`). */
  profile: boolean;
  /** The one section to run (`--only`), or every one. */
  only?: BenchSection;
  create: {
    concurrencies: number[];
    /** Measured transfers per concurrency level (after the warm-up). */
    transfers: Record<number, number>;
    warmup: number;
  };
  sweep: {
    /** Due movements on SQLite; the last is the largest backlog (RSS growth is measured against the first). */
    sqliteBacklogs: number[];
    /** Postgres: due movements for the 1, 2 and 4 process runs. */
    postgresBacklog: number;
    postgresProcesses: number[];
    /**
     * Movements each process sweeps before measuring (connections opened, code compiled), as the create runs
     * send transfers before measuring: a run is meant to measure a reconciler that has been running a while.
     * With 4 processes on 2 cores, V8 was still compiling (~10 % of their CPU) after 2 000 each; after 6 000
     * CPU per query no longer fell (12 000 gave the same).
     */
    warmupPerProcess: number;
    /** Queries in flight per process. */
    inFlight: number;
    /** Round trip the sandbox adds for the Postgres scaling runs. */
    postgresLatencyMs: number;
    /**
     * `--quick` only: each sweep run stops after this long instead of draining its backlog, which stays
     * almost whole meanwhile (the rate is the rate with that many due movements).
     */
    timeLimitMs?: number;
  };
  discipline: { movements: number };
  /** The HMAC scheme every system signs with and the sandbox requires (`--hmac-preset`, default `default`). */
  hmac: BenchHmac;
}

const PLANS: Record<BenchMode, Omit<BenchPlan, 'mode' | 'profile' | 'hmac' | 'only'>> = {
  quick: {
    create: { concurrencies: [1, 16, 64], transfers: { 1: 200, 16: 1_000, 64: 1_500 }, warmup: 1_500 },
    sweep: {
      sqliteBacklogs: [10_000, 100_000],
      postgresBacklog: 20_000,
      postgresProcesses: [1, 2, 4],
      warmupPerProcess: 1_000,
      inFlight: 16,
      postgresLatencyMs: 20,
      timeLimitMs: 8_000,
    },
    discipline: { movements: 200 },
  },
  standard: {
    create: { concurrencies: [1, 16, 64], transfers: { 1: 500, 16: 4_000, 64: 6_000 }, warmup: 6_000 },
    sweep: {
      sqliteBacklogs: [10_000, 100_000],
      postgresBacklog: 30_000,
      postgresProcesses: [1, 2, 4],
      warmupPerProcess: 6_000,
      inFlight: 16,
      postgresLatencyMs: 20,
    },
    discipline: { movements: 400 },
  },
  full: {
    create: { concurrencies: [1, 16, 64], transfers: { 1: 1_000, 16: 10_000, 64: 20_000 }, warmup: 6_000 },
    sweep: {
      sqliteBacklogs: [10_000, 100_000, 1_000_000],
      postgresBacklog: 100_000,
      postgresProcesses: [1, 2, 4],
      warmupPerProcess: 6_000,
      inFlight: 16,
      postgresLatencyMs: 20,
    },
    discipline: { movements: 500 },
  },
};

const USAGE =
  'usage: pnpm bench [--quick | --full] [--profile] [--hmac-preset default | single-header] [--only create | sweep | postgres-sweep]';

export class UsageError extends Error {
  constructor(problem: string) {
    super(`${problem}\n${USAGE}`);
    this.name = 'UsageError';
  }
}

export function planFromArgs(args: readonly string[]): BenchPlan {
  const known = new Set(['--quick', '--full', '--profile']);
  const presetAt = args.indexOf('--hmac-preset');
  const preset = presetAt === -1 ? 'default' : args[presetAt + 1];
  if (preset !== 'default' && preset !== 'single-header')
    throw new UsageError('--hmac-preset must be followed by default or single-header');
  const onlyAt = args.indexOf('--only');
  const only = onlyAt === -1 ? undefined : args[onlyAt + 1];
  if (onlyAt !== -1 && !SECTIONS.includes(only as BenchSection))
    throw new UsageError(`--only must be followed by ${SECTIONS.join(' or ')}`);
  const withValue = [presetAt, onlyAt].filter((index) => index !== -1);
  const valueAt = new Set(withValue.flatMap((index) => [index, index + 1]));
  const unknown = args.filter((arg, index) => !known.has(arg) && !valueAt.has(index));
  if (unknown.length > 0) throw new UsageError(`unknown argument ${unknown.join(' ')}`);
  if (args.includes('--quick') && args.includes('--full'))
    throw new UsageError('--quick and --full exclude each other');
  const mode: BenchMode = args.includes('--quick') ? 'quick' : args.includes('--full') ? 'full' : 'standard';
  // With single-header, a key id too: the sandbox then checks that every system names it.
  const hmac: BenchHmac = preset === 'single-header' ? { preset, keyId: 'bench-key' } : { preset };
  return {
    mode,
    profile: args.includes('--profile'),
    hmac,
    ...(only !== undefined && { only: only as BenchSection }),
    ...structuredClone(PLANS[mode]),
  };
}
