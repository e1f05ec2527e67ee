import 'reflect-metadata';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { dataSourceOptionsFromUrl, systemClock } from '@giro/transfer-module';
import { DataSource } from 'typeorm';
import { MovementStore } from '../lookup-index/lookup-index-store';
import { machineInfo } from '../machine';
import { recordInBenchmarksDoc, writeResultsJson } from '../report/write-results';
import { checkpoint, postgresReachable } from '../sweep/seed-postgres';
import { type ListPage, measureKind, samplePools } from './search-measure';
import { type SearchPlan, searchPlanFromArgs } from './search-plan';
import { PAGE_SIZE, searchKinds } from './search-queries';
import { type EngineRun, renderSearchReport, type SearchResults, searchGoals } from './search-report';
import { dropSearchDatabase, FIRST_ORIGIN_ID, type SeededHistory, seedPostgres, seedSqlite } from './search-seed';

type TransferModuleMovement = typeof import('@giro/transfer-module/movement');
const transferModuleDir = dirname(require.resolve('@giro/transfer-module/package.json'));
// The admin route's view of a movement (MovementService.listMovements maps each page with it); not exported by
// the package, read from the workspace's build as lookup-index-store.ts reads the store.
const { toMovementView } = require(join(transferModuleDir, 'dist', 'movement')) as TransferModuleMovement;

const DEFAULT_POSTGRES_URL = 'postgres://postgres@127.0.0.1:5432/test';
const SAMPLES = 400;

/** Times every kind of search on one seeded database, through the store's listDetails and the API's view. */
async function measureEngine(
  seeded: SeededHistory,
  label: string,
  plan: SearchPlan,
  log: (message: string) => void,
): Promise<EngineRun> {
  const dataSource = await new DataSource(dataSourceOptionsFromUrl(seeded.url)).initialize();
  try {
    const store = new MovementStore(dataSource, systemClock);
    const list: ListPage = async (options) => {
      const page = await store.listDetails(options);
      return { items: page.items.map(toMovementView), nextCursor: page.nextCursor };
    };
    const pools = await samplePools(dataSource, FIRST_ORIGIN_ID, seeded.movements, SAMPLES);
    const kinds = [];
    for (const kind of searchKinds(pools)) {
      const result = await measureKind(kind, list, plan.measure);
      log(
        `${label}: ${kind.name}: p50 ${result.p50Ms.toFixed(2)} p99 ${result.p99Ms.toFixed(2)} max ${result.maxMs.toFixed(1)} ms (${result.runs} runs)`,
      );
      kinds.push(result);
    }
    return {
      label,
      movements: seeded.movements,
      historyRows: seeded.historyRows,
      seedSeconds: seeded.seedSeconds,
      bytes: seeded.bytes,
      kinds,
    };
  } finally {
    await dataSource.destroy();
  }
}

/**
 * The search API on a long history: `node bench/dist/search/search-main.js [--quick | --full] [--keep]`,
 * and the last part of `pnpm bench`. Seeds SQLite (1 M movements; 100 k with --quick) and Postgres (10 M; 1 M),
 * times each kind of search, prints the report, writes bench/results/search.json and puts the report in
 * BENCHMARKS.md between the `bench:search` markers.
 */
export async function runSearchBench(args: string[]): Promise<void> {
  const plan = searchPlanFromArgs(args);
  const machine = machineInfo();
  const started = Date.now();
  const log = (message: string) =>
    process.stderr.write(`[search ${((Date.now() - started) / 1000).toFixed(0).padStart(5)} s] ${message}\n`);
  log(`${plan.mode} run on ${machine.cpuModel} (${machine.cores} cores), Node ${machine.node}`);
  const engines: EngineRun[] = [];
  if (plan.engines.includes('sqlite')) {
    const file = join(tmpdir(), `giro-bench-search-${plan.sqliteMovements}.sqlite`);
    try {
      // Without ANALYZE first: giro never runs it, so a deployment's SQLite plans without statistics.
      const seeded = await seedSqlite(file, plan.sqliteMovements, { reuse: plan.keep, analyze: false, log });
      log(`SQLite: ${seeded.movements} movements in ${seeded.seedSeconds.toFixed(0)} s`);
      const dataSource = await new DataSource(dataSourceOptionsFromUrl(seeded.url)).initialize();
      // A kept file holds the statistics of its last run's ANALYZE: all of them go (stat4 refines stat1's).
      for (const table of ['sqlite_stat1', 'sqlite_stat4']) await dataSource.query(`DROP TABLE IF EXISTS ${table}`);
      await dataSource.destroy();
      engines.push(await measureEngine(seeded, 'SQLite', plan, log));
      const analyzing = await new DataSource(dataSourceOptionsFromUrl(seeded.url)).initialize();
      await analyzing.query('ANALYZE');
      await analyzing.destroy();
      engines.push(await measureEngine({ ...seeded, seedSeconds: 0 }, 'SQLite, after ANALYZE', plan, log));
    } finally {
      if (!plan.keep) for (const suffix of ['', '-wal', '-shm']) rmSync(`${file}${suffix}`, { force: true });
    }
  }
  const serverUrl = process.env.BENCH_POSTGRES_URL ?? DEFAULT_POSTGRES_URL;
  if (plan.engines.includes('postgres')) {
    if (await postgresReachable(serverUrl)) {
      try {
        const seeded = await seedPostgres(serverUrl, plan.postgresMovements, { reuse: plan.keep, log });
        log(`Postgres: ${seeded.movements} movements in ${seeded.seedSeconds.toFixed(0)} s`);
        // The seeding's (or a kept history's migration's) dirty pages written out before the clock starts: the run
        // measures the searches, not the server flushing them in the background meanwhile.
        if (!(await checkpoint(seeded.url))) log('Postgres: no CHECKPOINT (the role may not)');
        engines.push(await measureEngine(seeded, 'Postgres', plan, log));
      } finally {
        if (!plan.keep) await dropSearchDatabase(serverUrl);
      }
    } else {
      log('Postgres skipped: no server answered (set BENCH_POSTGRES_URL)');
    }
  }
  const { date, ...rest } = machine;
  const results: SearchResults = {
    mode: plan.mode,
    machine: { ...rest, date },
    durationSeconds: Math.round((Date.now() - started) / 1000),
    pageSize: PAGE_SIZE,
    engines,
    goals: searchGoals(engines),
  };
  const report = renderSearchReport(results);
  const file = writeResultsJson('search', results);
  recordInBenchmarksDoc('search', report);
  console.log(report);
  log(`results in ${file} and BENCHMARKS.md`);
}

if (require.main === module) {
  runSearchBench(process.argv.slice(2)).catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
