import type { CreateRun } from '../create/run-create';
import type { DisciplineRun } from '../discipline/run-discipline';
import type { MachineInfo } from '../machine';
import type { BenchMode } from '../options';
import { ratio } from '../stats';
import type { SweepBenchmarks, SweepRun } from '../sweep/run-sweep';
import { evaluateGoals, type GoalResult } from './goals';

/** What `bench/results/latest.json` holds. Ratios are NaN (null in JSON) when a figure is missing. */
export interface BenchResults {
  mode: BenchMode;
  machine: MachineInfo;
  durationSeconds: number;
  create: {
    runs: CreateRun[];
    /** The concurrency the ratios are taken at (the highest measured). */
    ratiosAtConcurrency: number;
    ratioToLimit: number;
    ratioToPeer: number;
  };
  sweep: {
    sqlite: {
      runs: SweepRun[];
      /** The backlog the ratio is taken at (the largest measured). */
      ratioAtBacklog: number;
      ratioToLimit: number;
    };
    postgres: { runs: SweepRun[]; scaling: number } | { skipped: string; scaling: null };
    /** Queries in flight per process and the round trip the sandbox added, for the Postgres runs. */
    postgresPlan: { inFlight: number; latencyMs: number } | null;
    /** Set when each sweep run stopped after this long instead of draining its backlog (--quick). */
    timeLimitSeconds: number | null;
    /** Peak RSS of giro's SQLite sweep process at the largest backlog ÷ at the smallest. */
    rssGrowth: number;
    rssGrowthBacklogs: [number, number];
  };
  discipline: DisciplineRun;
  goals: GoalResult[];
}

export function assembleResults(parts: {
  mode: BenchMode;
  machine: MachineInfo;
  durationSeconds: number;
  sweepTimeLimitMs: number | undefined;
  postgresPlan: { inFlight: number; latencyMs: number };
  create: CreateRun[];
  sweep: SweepBenchmarks;
  discipline: DisciplineRun;
}): BenchResults {
  const results: Omit<BenchResults, 'goals'> = {
    mode: parts.mode,
    machine: parts.machine,
    durationSeconds: parts.durationSeconds,
    create: summarizeCreate(parts.create),
    sweep: summarizeSweep(parts.sweep, parts.sweepTimeLimitMs, parts.postgresPlan),
    discipline: parts.discipline,
  };
  return { ...results, goals: evaluateGoals(results) };
}

/** The create runs with the ratios of giro at the highest concurrency measured. */
export function summarizeCreate(runs: CreateRun[]): BenchResults['create'] {
  const concurrency = Math.max(...runs.map((run) => run.concurrency));
  const createRate = (system: CreateRun['system']) =>
    runs.find((run) => run.system === system && run.concurrency === concurrency)?.perSecond ?? Number.NaN;
  return {
    runs,
    ratiosAtConcurrency: concurrency,
    ratioToLimit: ratio(createRate('giro'), createRate('limit')),
    ratioToPeer: ratio(createRate('giro'), createRate('peer')),
  };
}

/** The sweep runs with giro's ratio to the limit at the largest SQLite backlog and the Postgres scaling. */
export function summarizeSweep(
  sweep: SweepBenchmarks,
  timeLimitMs: number | undefined,
  postgresPlan: { inFlight: number; latencyMs: number },
): BenchResults['sweep'] {
  const sqliteRuns = sweep.sqlite;
  const backlogs = sqliteRuns.map((run) => run.backlog);
  const [smallest, largest] = [Math.min(...backlogs), Math.max(...backlogs)];
  const sqlite = (system: SweepRun['system'], backlog: number) =>
    sqliteRuns.find((run) => run.system === system && run.backlog === backlog);

  const postgres = sweep.postgres;
  const byProcesses = (processes: number) =>
    Array.isArray(postgres) ? postgres.find((run) => run.processes === processes)?.perSecond : undefined;

  return {
    sqlite: {
      runs: sqliteRuns,
      ratioAtBacklog: largest,
      ratioToLimit: ratio(
        sqlite('giro', largest)?.perSecond ?? Number.NaN,
        sqlite('limit', largest)?.perSecond ?? Number.NaN,
      ),
    },
    postgres: Array.isArray(postgres)
      ? { runs: postgres, scaling: ratio(byProcesses(4) ?? Number.NaN, byProcesses(1) ?? Number.NaN) }
      : { skipped: postgres.skipped, scaling: null },
    postgresPlan: Array.isArray(postgres) ? postgresPlan : null,
    timeLimitSeconds: timeLimitMs === undefined ? null : timeLimitMs / 1000,
    rssGrowth: ratio(
      sqlite('giro', largest)?.peakRssMiB[0] ?? Number.NaN,
      sqlite('giro', smallest)?.peakRssMiB[0] ?? Number.NaN,
    ),
    rssGrowthBacklogs: [smallest, largest],
  };
}
