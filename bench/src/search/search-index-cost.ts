import 'reflect-metadata';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { dataSourceOptionsFromUrl, systemClock } from '@giro/transfer-module';
import { DataSource } from 'typeorm';
import { MovementStore, type MovementStoreInstance } from '../lookup-index/lookup-index-store';
import { machineInfo } from '../machine';
import { ProcessGroupCpu } from '../process-group-cpu';
import { formatNumber, markdownTable } from '../report/markdown-table';
import { writeResultsJson } from '../report/write-results';
import { postgresReachable } from '../sweep/seed-postgres';
import { dropSearchDatabase, parties, SEARCH_DATABASE, seedPostgres, seedSqlite } from './search-seed';
import { SEARCH_BTREES, TEXT_STAND_IN } from './search-write-variants';
import { claimOpen, createPath, quietAnswer, reopen } from './search-write-workload';

/**
 * `node bench/dist/search/search-index-cost.js [--movements N] [--writes N] [--warm N] [--only sqlite|postgres] [--drop all|text|btrees|<index>]`:
 * what the search's indexes cost the writes of the create path and of the sweep. For each engine, a history of N
 * movements as the search bench seeds it (default 100 000), then rounds — a warm-up, then without the search's
 * indexes and with them (as the migrations make them), twice, alternated (the repeats show the drift of the
 * machine) — each timing the create path's writes (`recordIntent`, then the first answer; parties, amounts and
 * descriptions drawn like the history's) and a sweep's quiet answers to open movements of the history, 16 at once,
 * after `--warm` creates of the same kind that are not measured (default 8 000: an index just built has every leaf
 * full, so the first writes after it split pages a history written over time would not split as often; the default
 * is several writes for each leaf of the default history's indexes, so that nearly every leaf has split once),
 * with the CPU they took: this process's (SQLite runs in it) and, on Postgres, the server's backends of the bench's
 * database. Prints a table, the bytes each index takes and, on Postgres, how many of the rounds' updates were HOT
 * (wrote no index entry); writes bench/results/search-index-cost.json.
 */

const DEFAULT_POSTGRES_URL = 'postgres://postgres@127.0.0.1:5432/test';
const CONCURRENCY = 16;
const FIRST_NEW_ORIGIN_ID = 900_000_000;
const POSTGRES_TEXT_INDEX = 'IDX_giro_movements_description_trgm';
/** A first round warms the process and the server up (connections, compiled code); then each state twice, alternated. */
const ROUNDS = [
  { label: 'warm-up, with', indexes: true },
  { label: 'without the search indexes', indexes: false },
  { label: 'with the search indexes', indexes: true },
  { label: 'without, again', indexes: false },
  { label: 'with, again', indexes: true },
] as const;

interface WriteCost {
  operations: number;
  /** Wall time per operation at CONCURRENCY callers, µs. */
  microsPerOperation: number;
  /** Postgres only: WAL bytes per operation (the whole server's: other work adds to it). */
  walBytesPerOperation: number | null;
}

interface Costed extends WriteCost {
  /** CPU per operation, µs: the bench's process (the store, and SQLite) and the Postgres backends. */
  processCpuMicros: number;
  serverCpuMicros: number | null;
}

interface BenchDatabase {
  engine: 'SQLite' | 'Postgres';
  dataSource: DataSource;
  store: MovementStoreInstance;
}

interface RoundResult {
  engine: BenchDatabase['engine'];
  round: string;
  create: Costed;
  answer: Costed;
}

/** Which of the search's indexes the rounds without them drop: all, the text's only, the B-trees only, or one by name. */
type Dropped = string;

/** The statements that drop the search's indexes and those that make them again, read from the database. */
async function searchIndexStatements(
  database: BenchDatabase,
  dropped: Dropped,
): Promise<{ drop: string[]; create: string[] }> {
  const statements = await allSearchIndexStatements(database);
  const isText = (sql: string) => /giro_movement_text|description_trgm/.test(sql);
  const kept = (sql: string) =>
    dropped === 'all' ||
    (dropped === 'text' && isText(sql)) ||
    (dropped === 'btrees' && !isText(sql)) ||
    sql.includes(`"${dropped}"`);
  const result = { drop: statements.drop.filter(kept), create: statements.create.filter(kept) };
  if (result.drop.length === 0) throw new Error(`--drop ${dropped}: no such search index`);
  return result;
}

async function allSearchIndexStatements(database: BenchDatabase): Promise<{ drop: string[]; create: string[] }> {
  const { dataSource } = database;
  if (database.engine === 'SQLite') {
    const rows: { type: string; name: string; sql: string }[] = await dataSource.query(
      `SELECT "type", "name", "sql" FROM sqlite_master
       WHERE "name" IN (${SEARCH_BTREES.map(() => '?').join(', ')}) OR "name" LIKE 'TRG_giro_movement_text_%'
         OR "name" = 'giro_movement_text' ORDER BY "type" = 'trigger'`,
      [...SEARCH_BTREES],
    );
    const text = rows.some((row) => row.name === 'giro_movement_text');
    return {
      drop: [
        ...rows.map((row) => `DROP ${row.type === 'table' ? 'TABLE' : row.type.toUpperCase()} "${row.name}"`),
        ...(text ? TEXT_STAND_IN : []),
      ],
      create: [
        ...(text ? ['DROP VIEW "giro_movement_text"'] : []),
        ...rows.map((row) => row.sql),
        ...(text ? [`INSERT INTO "giro_movement_text" ("giro_movement_text") VALUES ('rebuild')`] : []),
      ],
    };
  }
  const rows: { name: string; definition: string }[] = await dataSource.query(
    `SELECT indexname AS name, indexdef AS definition FROM pg_indexes
     WHERE tablename = 'giro_movements' AND (indexname = ANY($1) OR indexname = $2)`,
    [SEARCH_BTREES, POSTGRES_TEXT_INDEX],
  );
  return { drop: rows.map((row) => `DROP INDEX "${row.name}"`), create: rows.map((row) => row.definition) };
}

/** A backend reports its counts to the statistics when idle for this long at most (Postgres's PGSTAT_IDLE_INTERVAL, 10 s). */
const STATISTICS_REPORTED_MS = 11_000;

interface UpdateCounts {
  updates: number;
  hot: number;
}

/** Postgres: giro_movements' updates so far and how many of them were HOT (no index written), once reported. */
async function updateCounts(database: BenchDatabase): Promise<UpdateCounts | null> {
  if (database.engine === 'SQLite') return null;
  await new Promise((resolve) => setTimeout(resolve, STATISTICS_REPORTED_MS));
  const [row] = await database.dataSource.query(
    `SELECT n_tup_upd AS updates, n_tup_hot_upd AS hot FROM pg_stat_user_tables WHERE relname = 'giro_movements'`,
  );
  return { updates: Number(row.updates), hot: Number(row.hot) };
}

async function walBytes(database: BenchDatabase): Promise<number | null> {
  if (database.engine === 'SQLite') return null;
  const [row] = await database.dataSource.query(`SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')::bigint AS wal`);
  return Number(row.wal);
}

/** `count` operations, CONCURRENCY at once. */
async function concurrently(count: number, operation: (index: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < count) await operation(next++);
    }),
  );
}

/** `count` operations, CONCURRENCY at once, with the CPU of this process and of the bench database's backends. */
async function costed(
  database: BenchDatabase,
  count: number,
  operation: (index: number) => Promise<void>,
): Promise<Costed> {
  const server = database.engine === 'Postgres' ? new ProcessGroupCpu('postgres', 500, SEARCH_DATABASE) : undefined;
  const walBefore = await walBytes(database);
  server?.start();
  const before = process.cpuUsage();
  const started = performance.now();
  await concurrently(count, operation);
  const elapsedMs = performance.now() - started;
  const used = process.cpuUsage(before);
  const serverMs = server?.stop();
  const walAfter = await walBytes(database);
  return {
    operations: count,
    microsPerOperation: (elapsedMs * 1000) / count,
    walBytesPerOperation: walBefore === null || walAfter === null ? null : (walAfter - walBefore) / count,
    processCpuMicros: (used.user + used.system) / count,
    serverCpuMicros: serverMs === undefined ? null : (serverMs * 1000) / count,
  };
}

function argument(args: string[], name: string, fallback: number): number {
  const index = args.indexOf(name);
  if (index === -1) return fallback;
  const value = Number(args[index + 1]);
  if (!Number.isSafeInteger(value) || value < 1) throw new Error(`${name} must be a positive integer`);
  return value;
}

async function main(args: string[]): Promise<void> {
  const movements = argument(args, '--movements', 100_000);
  const writes = argument(args, '--writes', 4_000);
  const warm = argument(args, '--warm', 8_000);
  const only = args.includes('--only') ? args[args.indexOf('--only') + 1] : undefined;
  const dropped: Dropped = args.includes('--drop') ? args[args.indexOf('--drop') + 1] : 'all';
  const log = (message: string) => process.stderr.write(`[search-index-cost] ${message}\n`);
  const workDir = mkdtempSync(join(tmpdir(), 'giro-search-index-cost-'));
  const serverUrl = process.env.BENCH_POSTGRES_URL ?? DEFAULT_POSTGRES_URL;
  const people = parties();
  const results: RoundResult[] = [];
  const sizes: { engine: string; indexes: { name: string; bytes: number }[] }[] = [];
  const updates: ({ engine: string } & UpdateCounts)[] = [];
  try {
    const engines: (() => Promise<BenchDatabase>)[] = [];
    if (only !== 'postgres') {
      engines.push(async () => {
        const seeded = await seedSqlite(join(workDir, 'giro.sqlite'), movements, { reuse: false, analyze: false, log });
        return opened('SQLite', seeded.url);
      });
    }
    if (only !== 'sqlite') {
      if (await postgresReachable(serverUrl)) {
        engines.push(async () =>
          opened('Postgres', (await seedPostgres(serverUrl, movements, { reuse: false, log })).url),
        );
      } else log('Postgres skipped: no server answered (set BENCH_POSTGRES_URL)');
    }
    let nextOriginId = FIRST_NEW_ORIGIN_ID;
    for (const open of engines) {
      const database = await open();
      log(`${database.engine}: ${movements} movements seeded`);
      try {
        await reopen(database.dataSource, writes * ROUNDS.length, database.engine === 'Postgres');
        const statements = await searchIndexStatements(database, dropped);
        sizes.push({ engine: database.engine, indexes: await indexBytes(database) });
        const countsBefore = await updateCounts(database);
        let present = true;
        for (const round of ROUNDS) {
          if (present !== round.indexes) {
            for (const sql of round.indexes ? statements.create : statements.drop) await database.dataSource.query(sql);
            present = round.indexes;
          }
          const warmFrom = nextOriginId;
          await concurrently(warm, (index) => createPath(database.store, warmFrom + index, people));
          nextOriginId += warm;
          const first = nextOriginId;
          const create = await costed(database, writes, (index) => createPath(database.store, first + index, people));
          nextOriginId += writes;
          const claimed = await claimOpen(database.store, writes);
          const answer = await costed(database, writes, (index) => quietAnswer(database.store, claimed[index]));
          results.push({ engine: database.engine, round: round.label, create, answer });
          log(`${database.engine}, ${round.label}: create ${create.processCpuMicros.toFixed(0)} µs CPU`);
        }
        const countsAfter = await updateCounts(database);
        if (countsBefore !== null && countsAfter !== null) {
          updates.push({
            engine: database.engine,
            updates: countsAfter.updates - countsBefore.updates,
            hot: countsAfter.hot - countsBefore.hot,
          });
        }
      } finally {
        await database.dataSource.destroy();
        if (database.engine === 'Postgres') await dropSearchDatabase(serverUrl);
      }
    }
  } finally {
    rmSync(workDir, { recursive: true, force: true });
  }
  const machine = machineInfo();
  writeResultsJson('search-index-cost', {
    machine,
    movements,
    writes,
    warm,
    dropped,
    concurrency: CONCURRENCY,
    results,
    sizes,
    updates,
  });
  console.log(render(results, sizes, updates, { movements, writes, warm, dropped, machine }));
}

async function opened(engine: BenchDatabase['engine'], url: string): Promise<BenchDatabase> {
  const dataSource = await new DataSource(dataSourceOptionsFromUrl(url)).initialize();
  return { engine, dataSource, store: new MovementStore(dataSource, systemClock) };
}

/** Bytes each of giro_movements' indexes takes (SQLite's FTS5 shadow tables summed under the text's name), and the table's. */
async function indexBytes(database: BenchDatabase): Promise<{ name: string; bytes: number }[]> {
  const rows: { name: string; bytes: string | number }[] =
    database.engine === 'SQLite'
      ? await database.dataSource.query(
          `SELECT CASE WHEN s."name" LIKE 'giro_movement_text%' THEN 'giro_movement_text (FTS5)' ELSE s."name" END AS "name",
             SUM(s."pgsize") AS "bytes"
           FROM "dbstat" s LEFT JOIN "sqlite_master" m ON m."name" = s."name"
           WHERE (m."type" = 'index' AND m."tbl_name" = 'giro_movements') OR s."name" LIKE 'giro_movement_text%'
             OR s."name" = 'giro_movements'
           GROUP BY 1 ORDER BY 1`,
        )
      : await database.dataSource.query(
          `SELECT c.relname AS name, pg_relation_size(c.oid)::bigint AS bytes FROM pg_class c
           WHERE c.relname = 'giro_movements'
              OR c.oid IN (SELECT indexrelid FROM pg_index WHERE indrelid = 'giro_movements'::regclass)
           ORDER BY 1`,
        );
  return rows.map((row) => ({ name: row.name, bytes: Number(row.bytes) }));
}

function render(
  results: RoundResult[],
  sizes: { engine: string; indexes: { name: string; bytes: number }[] }[],
  updates: ({ engine: string } & UpdateCounts)[],
  plan: { movements: number; writes: number; warm: number; dropped: Dropped; machine: ReturnType<typeof machineInfo> },
): string {
  const cpu = (cost: Costed) =>
    `${formatNumber(cost.processCpuMicros)}${cost.serverCpuMicros === null ? '' : ` + ${formatNumber(cost.serverCpuMicros)}`}`;
  const optional = (value: number | null) => (value === null ? '—' : formatNumber(value));
  const rows = results.map((result) => [
    result.engine,
    result.round,
    formatNumber(result.create.microsPerOperation),
    cpu(result.create),
    optional(result.create.walBytesPerOperation),
    formatNumber(result.answer.microsPerOperation),
    cpu(result.answer),
    optional(result.answer.walBytesPerOperation),
  ]);
  return [
    `The search's indexes (dropped without them: ${plan.dropped}) and the writes, ${formatNumber(plan.movements)} movements; ${formatNumber(plan.writes)} creates and ${formatNumber(plan.writes)} answers per round after ${formatNumber(plan.warm)} creates not measured, ${CONCURRENCY} at once.`,
    `Machine: ${plan.machine.cpuModel}, ${plan.machine.cores} cores, Node ${plan.machine.node}, ${plan.machine.date}.`,
    '',
    markdownTable(
      [
        'engine',
        'round',
        'create µs each',
        'create CPU µs (process + server)',
        'create WAL B',
        'answer µs each',
        'answer CPU µs (process + server)',
        'answer WAL B',
      ],
      rows,
      ['l', 'l', 'r', 'r', 'r', 'r', 'r', 'r'],
    ),
    '',
    markdownTable(
      ['engine', `table or index, ${formatNumber(plan.movements)} movements as seeded`, 'MiB'],
      sizes.flatMap((size) =>
        size.indexes.map((index) => [size.engine, index.name, formatNumber(index.bytes / 1_048_576, 1)]),
      ),
      ['l', 'l', 'r'],
    ),
    ...updates.map(
      (count) =>
        `\n${count.engine}: ${formatNumber(count.updates)} updates of giro_movements in the rounds (the claims, the answers, the create path's first answers), ${formatNumber(count.hot)} of them HOT (no index written).`,
    ),
  ].join('\n');
}

main(process.argv.slice(2)).catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
