import type { GoalResult } from '../report/goals';
import { formatNumber, markdownTable } from '../report/markdown-table';
import { percentile } from '../stats';

/** The goal for the search API, per kind of search: a person waits on it, not a program. */
export const P99_GOAL_MS = 100;

export interface KindSamples {
  name: string;
  /** Timed samples (pages). */
  runs: number;
  /** Samples planned: fewer were taken when the kind hit its time limit. */
  planned: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /** Movements per timed page, on average. */
  meanRows: number;
}

export interface EngineRun {
  /** "SQLite", "SQLite, after ANALYZE", "Postgres". */
  label: string;
  movements: number;
  historyRows: number;
  /** 0 when an existing database was reused. */
  seedSeconds: number;
  bytes: number;
  kinds: KindSamples[];
}

export interface SearchResults {
  mode: string;
  machine: { cpuModel: string; cores: number; memoryGiB: number; node: string; platform: string; date: string };
  durationSeconds: number;
  pageSize: number;
  engines: EngineRun[];
  goals: GoalResult[];
}

/** p50, p99 and max of one kind's samples (nearest rank, as elsewhere in the bench). */
export function summarizeKind(
  name: string,
  samplesMs: readonly number[],
  rowsPerPage: readonly number[],
  planned: number,
): KindSamples {
  return {
    name,
    runs: samplesMs.length,
    planned,
    p50Ms: percentile(samplesMs, 0.5),
    p99Ms: percentile(samplesMs, 0.99),
    maxMs: samplesMs.length === 0 ? Number.NaN : Math.max(...samplesMs),
    meanRows: rowsPerPage.length === 0 ? Number.NaN : rowsPerPage.reduce((a, b) => a + b, 0) / rowsPerPage.length,
  };
}

/** Per engine: is every kind's p99 within the goal, and which are not. */
export function searchGoals(engines: readonly EngineRun[]): GoalResult[] {
  return engines.map((engine) => {
    const misses = engine.kinds.filter((kind) => !(kind.p99Ms <= P99_GOAL_MS));
    const within = engine.kinds.length - misses.length;
    return {
      goal: `search p99, ${engine.label}, ${formatNumber(engine.movements)} movements`,
      target: `≤ ${P99_GOAL_MS} ms, every kind`,
      measured:
        misses.length === 0
          ? `${within} of ${engine.kinds.length} kinds`
          : `${within} of ${engine.kinds.length} kinds; not: ${misses.map((kind) => `${kind.name} (${formatNumber(kind.p99Ms, 1)} ms)`).join(', ')}`,
      met: engine.kinds.length === 0 ? null : misses.length === 0,
    };
  });
}

const gib = (bytes: number) => formatNumber(bytes / 2 ** 30, 1);

/** The markdown report: the seeded histories, one table of latencies per engine, the goals. */
export function renderSearchReport(results: SearchResults): string {
  const { machine } = results;
  const parts = [
    `Run: \`node bench/dist/search/search-main.js${results.mode === 'standard' ? '' : ` --${results.mode}`}\`, ${machine.date.slice(0, 16).replace('T', ' ')} UTC, ${formatNumber(results.durationSeconds)} s.`,
    `Machine: ${machine.cpuModel}, ${machine.cores} cores, ${machine.memoryGiB} GiB, Node ${machine.node}, ${machine.platform}.`,
    '#### Seeded histories',
    markdownTable(
      ['database', 'movements', 'history rows', 'seeding s', 'size GiB'],
      results.engines.map((engine) => [
        engine.label,
        formatNumber(engine.movements),
        formatNumber(engine.historyRows),
        engine.seedSeconds === 0 ? 'reused' : formatNumber(engine.seedSeconds),
        gib(engine.bytes),
      ]),
      ['l', 'r', 'r', 'r', 'r'],
    ),
  ];
  for (const engine of results.engines) {
    parts.push(
      `#### Search latency, ${engine.label}, ${formatNumber(engine.movements)} movements (a page of ${results.pageSize} with each movement's history, newest first unless said)`,
      markdownTable(
        ['search', 'runs', 'rows per page', 'p50 ms', 'p99 ms', 'max ms', `p99 ≤ ${P99_GOAL_MS} ms`],
        engine.kinds.map((kind) => [
          kind.name,
          kind.runs < kind.planned ? `${kind.runs} (time limit)` : String(kind.runs),
          formatNumber(kind.meanRows, 1),
          formatNumber(kind.p50Ms, 2),
          formatNumber(kind.p99Ms, 2),
          formatNumber(kind.maxMs, 1),
          kind.p99Ms <= P99_GOAL_MS ? 'yes' : 'no',
        ]),
        ['l', 'r', 'r', 'r', 'r', 'r', 'l'],
      ),
    );
  }
  parts.push(
    '#### Goals',
    markdownTable(
      ['goal', 'target', 'measured', 'met'],
      results.goals.map((g) => [g.goal, g.target, g.measured, g.met === null ? '—' : g.met ? 'yes' : 'no']),
    ),
  );
  return parts.join('\n\n');
}
