import 'reflect-metadata';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { machineInfo } from '../machine';
import { recordInBenchmarksDoc, resultsFile, writeResultsJson } from '../report/write-results';
import { FIRST_ORIGIN_ID, seedSqlite } from '../search/search-seed';
import {
  CHROMIUM_PATH,
  chromiumPresent,
  launchBenchChromium,
  measureFirstPage,
  type SearchSample,
  signIn,
  timeSearch,
} from './console-browser';
import { consoleSearchKinds, sampleMovements } from './console-searches';
import { startConsoleServer } from './console-server';
import {
  type ConsoleSpeedResults,
  consoleSpeedGoals,
  type LoadFigures,
  renderConsoleSpeedReport,
  type SearchKindResult,
  summarizeFirstPage,
  summarizeSearch,
} from './console-speed-report';

const RESULTS_FILE = resultsFile('console-speed');

export const CONSOLE_SPEED_USAGE =
  'usage: console-speed-main [--quick] [--keep]  (--quick: 100 000 transfers; --keep: leave the seeded SQLite file in the temp directory and reuse it)';

export interface ConsoleSpeedPlan {
  mode: 'quick' | 'standard';
  transfers: number;
  firstPageRuns: number;
  searchRuns: number;
  /** Untimed searches of each kind first. */
  searchWarmup: number;
  keep: boolean;
}

export function consoleSpeedPlanFromArgs(args: readonly string[]): ConsoleSpeedPlan {
  const unknown = args.filter((arg) => arg !== '--quick' && arg !== '--keep');
  if (unknown.length > 0) throw new Error(`unknown argument ${unknown.join(' ')}\n${CONSOLE_SPEED_USAGE}`);
  const quick = args.includes('--quick');
  return {
    mode: quick ? 'quick' : 'standard',
    transfers: quick ? 100_000 : 1_000_000,
    firstPageRuns: quick ? 10 : 15,
    searchRuns: quick ? 10 : 20,
    searchWarmup: quick ? 1 : 2,
    keep: args.includes('--keep'),
  };
}

/** The 1-minute load average, sampled every 2 s until stopped. */
function watchLoad(): { stop(): LoadFigures } {
  const start = loadavg()[0];
  let max = start;
  const timer = setInterval(() => {
    max = Math.max(max, loadavg()[0]);
  }, 2_000);
  return {
    stop() {
      clearInterval(timer);
      const end = loadavg()[0];
      return { start, end, max: Math.max(max, end), cores: machineInfo().cores };
    },
  };
}

function chromiumVersion(): string {
  try {
    return execFileSync(CHROMIUM_PATH, ['--version'], {
      encoding: 'utf8',
      timeout: 10_000,
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
  } catch {
    return 'Chromium';
  }
}

/**
 * Issue 21's speed in the browser: `node bench/dist/console-speed/console-speed-main.js [--quick] [--keep]`, and
 * the last part of `pnpm bench`. Seeds SQLite with 1 000 000 transfers (100 000 with --quick; the search bench's
 * seeder), starts the reconciler on it as a child process (against the sandbox bank in another, so no demo
 * batch runs), signs in to the console in Debian's Chromium with a viewer key, and times the transfers page's
 * first page and each kind of search on screen. Prints the report, writes bench/results/console-speed.json and
 * puts the report in BENCHMARKS.md between the `bench:console-speed` markers. Without Chromium it says so and
 * skips.
 */
export async function runConsoleSpeedBench(args: string[]): Promise<void> {
  const plan = consoleSpeedPlanFromArgs(args);
  const machine = machineInfo();
  const started = Date.now();
  const log = (message: string) =>
    process.stderr.write(`[console-speed ${((Date.now() - started) / 1000).toFixed(0).padStart(4)} s] ${message}\n`);
  if (!chromiumPresent()) {
    log(`skipped: no Chromium at ${CHROMIUM_PATH} (apt-get install -y chromium, or set CHROMIUM_PATH)`);
    return;
  }
  log(`${plan.mode} run on ${machine.cpuModel} (${machine.cores} cores), Node ${machine.node}`);
  const workDir = mkdtempSync(join(tmpdir(), 'giro-bench-console-speed-'));
  const file = plan.keep
    ? join(tmpdir(), `giro-bench-console-speed-${plan.transfers}.sqlite`)
    : join(workDir, 'giro.sqlite');
  try {
    const seeded = await seedSqlite(file, plan.transfers, { reuse: plan.keep, analyze: false, log });
    log(
      `SQLite: ${seeded.movements} transfers (${seeded.seedSeconds === 0 ? 'reused' : `${seeded.seedSeconds.toFixed(0)} s`})`,
    );
    const samples = sampleMovements(file, FIRST_ORIGIN_ID, seeded.movements, 200);
    const kinds = consoleSearchKinds(samples);
    const server = await startConsoleServer(file, workDir);
    try {
      const { url, key } = server;
      const browser = await launchBenchChromium();
      const load = watchLoad();
      let firstPage: ConsoleSpeedResults['firstPage'];
      const searches: SearchKindResult[] = [];
      try {
        const page = await browser.context.newPage();
        await signIn(page, url, key);
        firstPage = summarizeFirstPage(await measureFirstPage(page, url, plan.firstPageRuns));
        log(
          `first page: p50 ${firstPage.paintedMs.p50.toFixed(0)} ms, max ${firstPage.paintedMs.max.toFixed(0)} ms (${firstPage.runs} loads, ${firstPage.rows} rows)`,
        );
        let run = 0;
        for (const kind of kinds) {
          const timed: SearchSample[] = [];
          for (let i = 0; i < plan.searchWarmup + plan.searchRuns; i++) {
            const sample = await timeSearch(page, kind.fill(run++));
            if (i >= plan.searchWarmup) timed.push(sample);
          }
          const result = summarizeSearch(kind.name, timed);
          log(
            `${kind.name}: p50 ${result.paintedMs.p50.toFixed(0)} p95 ${result.paintedMs.p95.toFixed(0)} max ${result.paintedMs.max.toFixed(0)} ms (before request ${result.beforeRequestMs.p50.toFixed(0)}, API ${result.apiMs.p50.toFixed(0)}, server ${result.waitMs.p50.toFixed(0)}, render ${result.renderMs.p50.toFixed(0)} ms; ${result.meanRows.toFixed(1)} rows${result.errors > 0 ? `, ${result.errors} errors: ${timed.find((s) => s.error)?.error}` : ''})`,
          );
          searches.push(result);
        }
      } finally {
        await browser.close();
      }
      const loadFigures = load.stop();
      const { date, ...rest } = machine;
      const partial = {
        mode: plan.mode,
        machine: { ...rest, date },
        chromium: chromiumVersion(),
        durationSeconds: Math.round((Date.now() - started) / 1000),
        transfers: seeded.movements,
        historyRows: seeded.historyRows,
        seedSeconds: seeded.seedSeconds,
        databaseBytes: statSync(file).size,
        load: loadFigures,
        firstPage,
        searches,
      };
      const results: ConsoleSpeedResults = { ...partial, goals: consoleSpeedGoals(partial) };
      const report = renderConsoleSpeedReport(results);
      writeResultsJson('console-speed', results);
      recordInBenchmarksDoc('console-speed', report);
      console.log(report);
      log(`results in ${RESULTS_FILE} and BENCHMARKS.md`);
    } finally {
      await server.stop();
    }
  } finally {
    rmSync(workDir, { recursive: true, force: true });
  }
}

if (require.main === module) {
  runConsoleSpeedBench(process.argv.slice(2)).catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
