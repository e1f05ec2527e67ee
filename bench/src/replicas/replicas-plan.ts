import type { CreatePostgresPlan } from './run-create-postgres';
import type { SharedBudgetPlan } from './run-shared-budget';
import type { SweepHistoryPlan } from './run-sweep-history';

export type ReplicasMode = 'quick' | 'standard' | 'full';
export const REPLICA_SECTIONS = ['budget', 'create', 'history'] as const;
export type ReplicaSection = (typeof REPLICA_SECTIONS)[number];

export interface ReplicasPlan {
  mode: ReplicasMode;
  sections: ReplicaSection[];
  budget: SharedBudgetPlan;
  create: CreatePostgresPlan;
  history: SweepHistoryPlan;
}

/** The bank 20 ms away and 16 calls in flight per process, as in the Postgres sweep runs. */
const LATENCY_MS = 20;
const IN_FLIGHT = 16;
/** Transfers in flight per creating process: 4 keeps 4 processes within 2 cores, 16 does not (see run-create-postgres). */
const CREATE_CONCURRENCIES = [4, 16];

const PLANS: Record<ReplicasMode, Omit<ReplicasPlan, 'mode' | 'sections'>> = {
  quick: {
    budget: { ratePerSecond: 50, durationMs: 15_000, settleMs: 3_000, replicaCounts: [1, 4], joiningCounts: [4] },
    create: { concurrencies: CREATE_CONCURRENCIES, warmup: 1_500, transfers: 2_000, latencyMs: LATENCY_MS },
    history: { due: 10_000, warmup: 1_000, histories: [200_000], inFlight: IN_FLIGHT, latencyMs: LATENCY_MS },
  },
  standard: {
    budget: { ratePerSecond: 50, durationMs: 25_000, settleMs: 5_000, replicaCounts: [1, 4], joiningCounts: [4] },
    create: { concurrencies: CREATE_CONCURRENCIES, warmup: 3_000, transfers: 5_000, latencyMs: LATENCY_MS },
    history: { due: 20_000, warmup: 3_000, histories: [1_000_000], inFlight: IN_FLIGHT, latencyMs: LATENCY_MS },
  },
  full: {
    budget: { ratePerSecond: 50, durationMs: 30_000, settleMs: 5_000, replicaCounts: [1, 4], joiningCounts: [4] },
    create: { concurrencies: CREATE_CONCURRENCIES, warmup: 6_000, transfers: 10_000, latencyMs: LATENCY_MS },
    history: {
      due: 100_000,
      warmup: 6_000,
      histories: [1_000_000, 10_000_000],
      inFlight: IN_FLIGHT,
      latencyMs: LATENCY_MS,
    },
  },
};

export const REPLICAS_USAGE = 'usage: bench replicas [--quick | --full] [--only budget,create,history]';

/** The plan for `args` (`--quick`, `--full`, `--only a,b`); throws with the usage on anything else. */
export function replicasPlanFromArgs(args: readonly string[]): ReplicasPlan {
  const onlyAt = args.indexOf('--only');
  const unknown = args.filter(
    (arg, index) =>
      !['--quick', '--full'].includes(arg) && !(onlyAt !== -1 && (index === onlyAt || index === onlyAt + 1)),
  );
  if (unknown.length > 0) throw new Error(`unknown argument ${unknown.join(' ')}\n${REPLICAS_USAGE}`);
  if (args.includes('--quick') && args.includes('--full'))
    throw new Error(`--quick and --full exclude each other\n${REPLICAS_USAGE}`);
  const sections = onlyAt === -1 ? [...REPLICA_SECTIONS] : (args[onlyAt + 1] ?? '').split(',');
  const known = (section: string): section is ReplicaSection =>
    (REPLICA_SECTIONS as readonly string[]).includes(section);
  if (!sections.every(known))
    throw new Error(`--only takes sections among ${REPLICA_SECTIONS.join(',')}\n${REPLICAS_USAGE}`);
  const mode: ReplicasMode = args.includes('--quick') ? 'quick' : args.includes('--full') ? 'full' : 'standard';
  return { mode, sections, ...structuredClone(PLANS[mode]) };
}
