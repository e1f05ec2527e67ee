import type { GoalResult } from '../report/goals';
import { formatNumber, markdownTable } from '../report/markdown-table';
import { percentile } from '../stats';
import type { FirstPageSample, SearchSample } from './console-browser';

/** Issue 21's goals for the console at 1 000 000 transfers. */
export const FIRST_PAGE_GOAL_MS = 1_000;
export const SEARCH_GOAL_MS = 300;

export interface Distribution {
  p50: number;
  p95: number;
  max: number;
}

export interface FirstPageResult {
  runs: number;
  rows: number;
  /** Navigation start → the frame after the rows were in the DOM (the figure the goal is read on). */
  paintedMs: Distribution;
  rowsMs: Distribution;
  /**
   * Medians, from navigation start: the document received, the bundle (app.js) received, GET /admin/me started
   * and answered, GET /admin/transfers started and answered (and its wait: sent to first byte).
   */
  steps: {
    documentMs: number;
    bundleEndMs: number;
    meStartMs: number;
    meEndMs: number;
    transfersStartMs: number;
    transfersEndMs: number;
    transfersWaitMs: number;
  };
  /** Bytes the last load fetched over the network (0 for what came from the cache). */
  transferBytes: number;
}

export interface SearchKindResult {
  name: string;
  runs: number;
  meanRows: number;
  errors: number;
  /** The submit click → the frame after the rows were in the DOM (the figure the goal is read on). */
  paintedMs: Distribution;
  /** The click → the page's request sent (remounting the page, its effect). */
  beforeRequestMs: Distribution;
  /** The request started → its answer received, in the browser. */
  apiMs: Distribution;
  /** Request sent → first byte (the server plus a loopback round trip). */
  waitMs: Distribution;
  /** The answer received → the rows in the DOM. */
  renderMs: Distribution;
}

export interface LoadFigures {
  /** The 1-minute load average when the browser part started and ended, and its highest sampled in between. */
  start: number;
  end: number;
  max: number;
  cores: number;
}

export interface ConsoleSpeedResults {
  mode: 'quick' | 'standard';
  machine: { cpuModel: string; cores: number; memoryGiB: number; node: string; platform: string; date: string };
  chromium: string;
  durationSeconds: number;
  transfers: number;
  historyRows: number;
  seedSeconds: number;
  databaseBytes: number;
  load: LoadFigures;
  firstPage: FirstPageResult;
  searches: SearchKindResult[];
  goals: GoalResult[];
}

export function distribution(values: readonly number[]): Distribution {
  const finite = values.filter(Number.isFinite);
  return {
    p50: percentile(finite, 0.5),
    p95: percentile(finite, 0.95),
    max: finite.length === 0 ? Number.NaN : Math.max(...finite),
  };
}

const median = (values: readonly number[]) => percentile(values.filter(Number.isFinite), 0.5);

/** The first resource whose path includes `part`, in one load. */
function resource(sample: FirstPageSample, part: string) {
  return sample.resources.find((entry) => entry.name.includes(part));
}

export function summarizeFirstPage(samples: readonly FirstPageSample[]): FirstPageResult {
  const step = (part: string, pick: (entry: FirstPageSample['resources'][number]) => number) =>
    median(
      samples.map((sample) => {
        const entry = resource(sample, part);
        return entry ? pick(entry) : Number.NaN;
      }),
    );
  const last = samples[samples.length - 1];
  return {
    runs: samples.length,
    rows: last?.rows ?? 0,
    paintedMs: distribution(samples.map((sample) => sample.paintedMs)),
    rowsMs: distribution(samples.map((sample) => sample.rowsMs)),
    steps: {
      documentMs: median(samples.map((sample) => sample.documentMs)),
      bundleEndMs: step('.js', (entry) => entry.endMs),
      meStartMs: step('/admin/me', (entry) => entry.startMs),
      meEndMs: step('/admin/me', (entry) => entry.endMs),
      transfersStartMs: step('/admin/transfers?', (entry) => entry.startMs),
      transfersEndMs: step('/admin/transfers?', (entry) => entry.endMs),
      transfersWaitMs: step('/admin/transfers?', (entry) => entry.waitMs),
    },
    transferBytes: last?.resources.reduce((sum, entry) => sum + entry.transferBytes, 0) ?? 0,
  };
}

export function summarizeSearch(name: string, samples: readonly SearchSample[]): SearchKindResult {
  return {
    name,
    runs: samples.length,
    meanRows: samples.reduce((sum, sample) => sum + sample.rows, 0) / Math.max(1, samples.length),
    errors: samples.filter((sample) => sample.error !== undefined).length,
    paintedMs: distribution(samples.map((sample) => sample.paintedMs)),
    beforeRequestMs: distribution(samples.map((sample) => sample.beforeRequestMs)),
    apiMs: distribution(samples.map((sample) => sample.apiMs)),
    waitMs: distribution(samples.map((sample) => sample.waitMs)),
    renderMs: distribution(samples.map((sample) => sample.renderMs)),
  };
}

/** First page: every load within the goal (its max). Searches: each kind's p95 within the goal. */
export function consoleSpeedGoals(
  results: Pick<ConsoleSpeedResults, 'transfers' | 'firstPage' | 'searches'>,
): GoalResult[] {
  const { firstPage, searches } = results;
  const misses = searches.filter((kind) => !(kind.paintedMs.p95 <= SEARCH_GOAL_MS) || kind.errors > 0);
  const rows = formatNumber(results.transfers);
  return [
    {
      goal: `transfers page, first page shown, ${rows} transfers`,
      target: `≤ ${formatNumber(FIRST_PAGE_GOAL_MS)} ms, every load`,
      measured: `median ${ms(firstPage.paintedMs.p50)}, max ${ms(firstPage.paintedMs.max)} (${firstPage.runs} loads)`,
      met: firstPage.runs === 0 ? null : firstPage.paintedMs.max <= FIRST_PAGE_GOAL_MS,
    },
    {
      goal: `each search, click to rows shown, ${rows} transfers`,
      target: `p95 ≤ ${SEARCH_GOAL_MS} ms, every kind`,
      measured:
        misses.length === 0
          ? `${searches.length} of ${searches.length} kinds`
          : `${searches.length - misses.length} of ${searches.length} kinds; not: ${misses
              .map(
                (kind) =>
                  `${kind.name} (p95 ${ms(kind.paintedMs.p95)}${kind.errors > 0 ? `, ${kind.errors} errors` : ''})`,
              )
              .join(', ')}`,
      met: searches.length === 0 ? null : misses.length === 0,
    },
  ];
}

const ms = (value: number) => `${formatNumber(value)} ms`;
const n = (value: number) => formatNumber(value);

/** The markdown report: the run, the first page, one row per kind of search, the goals. */
export function renderConsoleSpeedReport(results: ConsoleSpeedResults): string {
  const { machine, load, firstPage } = results;
  const steps = firstPage.steps;
  return [
    `Run: \`node bench/dist/console-speed/console-speed-main.js${results.mode === 'quick' ? ' --quick' : ''}\`, ${machine.date.slice(0, 16).replace('T', ' ')} UTC, ${n(results.durationSeconds)} s.`,
    `Machine: ${machine.cpuModel}, ${machine.cores} cores, ${machine.memoryGiB} GiB, Node ${machine.node}, ${machine.platform}; ${results.chromium}. Load average (1 min) while the browser measured: ${formatNumber(load.start, 2)} at the start, ${formatNumber(load.max, 2)} at most, ${formatNumber(load.end, 2)} at the end (${load.cores} cores).`,
    `Database: SQLite, ${n(results.transfers)} transfers and ${n(results.historyRows)} history rows (${results.seedSeconds === 0 ? 'reused' : `seeded in ${n(results.seedSeconds)} s`}, ${formatNumber(results.databaseBytes / 2 ** 30, 1)} GiB, no ANALYZE — giro never runs it), the reconciler from apps/reconciler/dist as a child process, Chromium headless on the same machine.`,
    '#### First page: `/console#/transfers` loaded afresh (cache warm), navigation start to its rows on screen',
    markdownTable(
      ['loads', 'rows', 'p50 ms', 'p95 ms', 'max ms'],
      [
        [
          n(firstPage.runs),
          n(firstPage.rows),
          n(firstPage.paintedMs.p50),
          n(firstPage.paintedMs.p95),
          n(firstPage.paintedMs.max),
        ],
      ],
      ['r', 'r', 'r', 'r', 'r'],
    ),
    `Where a load's time goes (medians, from navigation start): the document received at ${ms(steps.documentMs)}, the bundle at ${ms(steps.bundleEndMs)}; \`GET /admin/me\` from ${ms(steps.meStartMs)} to ${ms(steps.meEndMs)}; \`GET /admin/transfers\` from ${ms(steps.transfersStartMs)} to ${ms(steps.transfersEndMs)} (${ms(steps.transfersWaitMs)} of it the server's, sent to first byte); the rows in the DOM at ${ms(firstPage.rowsMs.p50)}, on screen at ${ms(firstPage.paintedMs.p50)}. ${formatNumber(firstPage.transferBytes / 1024, 1)} KiB came over the network in the last load.`,
    '#### Each search: the form filled, submit clicked, to the result rows (or the empty state) on screen',
    markdownTable(
      [
        'search',
        'runs',
        'rows',
        'p50 ms',
        'p95 ms',
        'max ms',
        'p50: before request',
        'API (server)',
        'render',
        `p95 ≤ ${SEARCH_GOAL_MS} ms`,
      ],
      results.searches.map((kind) => [
        kind.name,
        n(kind.runs),
        formatNumber(kind.meanRows, 1),
        n(kind.paintedMs.p50),
        n(kind.paintedMs.p95),
        n(kind.paintedMs.max),
        n(kind.beforeRequestMs.p50),
        `${n(kind.apiMs.p50)} (${n(kind.waitMs.p50)})`,
        n(kind.renderMs.p50),
        kind.errors > 0 ? `no (${kind.errors} errors)` : kind.paintedMs.p95 <= SEARCH_GOAL_MS ? 'yes' : 'no',
      ]),
      ['l', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'l'],
    ),
    "The p50 split, in ms: before request — the click to the page's `fetch` of `GET /admin/transfers` (the page mounted again for the new address, its effect run); API — that request to its answer received (the browser's resource timing), the server's part (sent to first byte) in brackets; render — the answer to the rows in the DOM. The rest, to the figure of the goal, is the wait for the next frame.",
    '#### Goals (issue 21)',
    markdownTable(
      ['goal', 'target', 'measured', 'met'],
      results.goals.map((g) => [g.goal, g.target, g.measured, g.met === null ? '—' : g.met ? 'yes' : 'no']),
    ),
  ].join('\n\n');
}
