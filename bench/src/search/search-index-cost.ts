import 'reflect-metadata';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { validateTransferIntent } from '@giro/transfer-module';
import { type BenchDatabase, postgresBenchDatabase, sqliteBenchDatabase } from '../lookup-index/lookup-index-engines';
import { measureAnswers, measureCreates, type WriteCost } from '../lookup-index/lookup-index-measure';
import { machineInfo } from '../machine';
import { ProcessGroupCpu } from '../process-group-cpu';
import { formatNumber, markdownTable } from '../report/markdown-table';
import { writeResultsJson } from '../report/write-results';
import type { Backlog } from '../sweep/backlog';
import { dropBenchDatabase, postgresReachable } from '../sweep/seed-postgres';
import { transferRequestBody } from '../workload/transfer-request';

/**
 * `node bench/dist/search/search-index-cost.js [--movements N] [--writes N] [--only sqlite|postgres] [--drop all|text|btrees]`: what the search's indexes cost the
 * writes of the create path and of the sweep. For each engine, a table of N answered movements (default 100 000),
 * then rounds — a warm-up, then without the search's indexes and with them (as the migrations make them), twice,
 * alternated (the repeats show the drift of the machine) — each timing the create path's writes (`recordIntent`, then the first
 * answer) and a sweep's quiet answers, 16 at once, with the CPU they took: this process's (SQLite runs in it) and,
 * on Postgres, the server's backends of the bench's database. Prints a table, writes
 * bench/results/search-index-cost.json.
 */

const DEFAULT_POSTGRES_URL = 'postgres://postgres@127.0.0.1:5432/test';
/** Its own database on the server: other benchmarks use giro_bench. */
const DATABASE = 'giro_bench_search_cost';
const CONCURRENCY = 16;
/** The search's B-tree indexes (search/ in the module); the text's index is each engine's own, below. */
const SEARCH_INDEXES = [
  'IDX_giro_movements_created',
  'IDX_giro_movements_status_created',
  'IDX_giro_movements_from_address',
  'IDX_giro_movements_to_address',
  'IDX_giro_movements_from_person',
  'IDX_giro_movements_to_person',
  'IDX_giro_movements_amount',
];
/** A first round warms the process and the server up (connections, compiled code); then each state twice, alternated. */
const ROUNDS = [
  { label: 'warm-up, with', indexes: true },
  { label: 'without the search indexes', indexes: false },
  { label: 'with the search indexes', indexes: true },
  { label: 'without, again', indexes: false },
  { label: 'with, again', indexes: true },
] as const;

interface Costed extends WriteCost {
  /** CPU per operation, µs: the bench's process (the store, and SQLite) and the Postgres backends. */
  processCpuMicros: number;
  serverCpuMicros: number | null;
}

interface RoundResult {
  engine: BenchDatabase['engine'];
  round: string;
  create: Costed;
  answer: Costed;
}

/** Which of the search's indexes the rounds without them drop: all, the text's only, or the B-trees only. */
type Dropped = 'all' | 'text' | 'btrees';

/** The statements that drop the search's indexes and those that make them again, read from the database. */
async function searchIndexStatements(
  database: BenchDatabase,
  dropped: Dropped,
): Promise<{ drop: string[]; create: string[] }> {
  const statements = await allSearchIndexStatements(database);
  const isText = (sql: string) => /giro_movement_text|description_trgm/.test(sql);
  const kept = (sql: string) => dropped === 'all' || (dropped === 'text') === isText(sql);
  return { drop: statements.drop.filter(kept), create: statements.create.filter(kept) };
}

async function allSearchIndexStatements(database: BenchDatabase): Promise<{ drop: string[]; create: string[] }> {
  const { dataSource } = database;
  if (database.engine === 'SQLite') {
    const rows: { type: string; name: string; sql: string }[] = await dataSource.query(
      `SELECT "type", "name", "sql" FROM sqlite_master
       WHERE "name" IN (${SEARCH_INDEXES.map(() => '?').join(', ')}) OR "name" LIKE 'TRG_giro_movement_text_%'
         OR "name" = 'giro_movement_text' ORDER BY "type" = 'trigger'`,
      SEARCH_INDEXES,
    );
    return {
      drop: rows.map((row) => `DROP ${row.type === 'table' ? 'TABLE' : row.type.toUpperCase()} "${row.name}"`),
      create: [
        ...rows.map((row) => row.sql),
        `INSERT INTO "giro_movement_text" ("giro_movement_text") VALUES ('rebuild')`,
      ],
    };
  }
  const rows: { name: string; definition: string }[] = await dataSource.query(
    `SELECT indexname AS name, indexdef AS definition FROM pg_indexes
     WHERE tablename = 'giro_movements' AND (indexname = ANY($1) OR indexname = 'IDX_giro_movements_description_trgm')`,
    [SEARCH_INDEXES],
  );
  return { drop: rows.map((row) => `DROP INDEX "${row.name}"`), create: rows.map((row) => row.definition) };
}

async function costed(database: BenchDatabase, measure: () => Promise<WriteCost>): Promise<Costed> {
  const server = database.engine === 'Postgres' ? new ProcessGroupCpu('postgres', 500, DATABASE) : undefined;
  server?.start();
  const before = process.cpuUsage();
  const cost = await measure();
  const used = process.cpuUsage(before);
  const serverMs = server?.stop();
  return {
    ...cost,
    processCpuMicros: (used.user + used.system) / cost.operations,
    serverCpuMicros: serverMs === undefined ? null : (serverMs * 1000) / cost.operations,
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
  const only = args.includes('--only') ? args[args.indexOf('--only') + 1] : undefined;
  const dropped = (args.includes('--drop') ? args[args.indexOf('--drop') + 1] : 'all') as Dropped;
  if (!['all', 'text', 'btrees'].includes(dropped)) throw new Error('--drop must be all, text or btrees');
  const validated = validateTransferIntent(transferRequestBody(), {});
  if (!validated.ok) throw new Error('the benchmark transfer is invalid');
  const { originId: _none, ...template } = { ...validated.intent, originId: 0 };
  const backlog: Backlog = { firstOriginId: 1, warmup: 0, count: movements, nowMs: Date.now() };
  const log = (message: string) => process.stderr.write(`[search-index-cost] ${message}\n`);
  const workDir = mkdtempSync(join(tmpdir(), 'giro-search-index-cost-'));
  const serverUrl = process.env.BENCH_POSTGRES_URL ?? DEFAULT_POSTGRES_URL;
  const results: RoundResult[] = [];
  const sizes: { engine: string; bytes: number }[] = [];
  try {
    const engines: (() => Promise<BenchDatabase>)[] = [];
    if (only !== 'postgres') engines.push(() => sqliteBenchDatabase(join(workDir, 'giro.sqlite'), backlog));
    if (only !== 'sqlite') {
      if (await postgresReachable(serverUrl)) engines.push(() => postgresBenchDatabase(serverUrl, backlog, DATABASE));
      else log('Postgres skipped: no server answered (set BENCH_POSTGRES_URL)');
    }
    let nextOriginId = movements + 1;
    for (const open of engines) {
      const database = await open();
      log(`${database.engine}: ${movements} movements seeded`);
      try {
        const statements = await searchIndexStatements(database, dropped);
        sizes.push({ engine: database.engine, bytes: await indexBytes(database) });
        let present = true;
        for (const round of ROUNDS) {
          if (present !== round.indexes) {
            for (const sql of round.indexes ? statements.create : statements.drop) await database.dataSource.query(sql);
            present = round.indexes;
          }
          const create = await costed(database, () =>
            measureCreates(database, template, nextOriginId, writes, CONCURRENCY),
          );
          nextOriginId += writes;
          const answer = await costed(database, () => measureAnswers(database, template, writes, CONCURRENCY));
          results.push({ engine: database.engine, round: round.label, create, answer });
          log(`${database.engine}, ${round.label}: create ${create.processCpuMicros.toFixed(0)} µs CPU`);
        }
      } finally {
        await database.close();
        if (database.engine === 'Postgres') await dropBenchDatabase(serverUrl, DATABASE);
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
    dropped,
    concurrency: CONCURRENCY,
    results,
    sizes,
  });
  console.log(render(results, sizes, { movements, writes, dropped, machine }));
}

/** Bytes the search's indexes take (with the text's index), on a database that has them. */
async function indexBytes(database: BenchDatabase): Promise<number> {
  if (database.engine === 'SQLite') {
    const [row] = await database.dataSource.query(
      `SELECT SUM("pgsize") AS "bytes" FROM "dbstat" WHERE "name" IN (${SEARCH_INDEXES.map(() => '?').join(', ')})
         OR "name" LIKE 'giro_movement_text_%'`,
      SEARCH_INDEXES,
    );
    return Number(row.bytes);
  }
  const [row] = await database.dataSource.query(
    `SELECT SUM(pg_relation_size(indexrelid))::bigint AS bytes FROM pg_stat_user_indexes
     WHERE indexrelname = ANY($1) OR indexrelname = 'IDX_giro_movements_description_trgm'`,
    [SEARCH_INDEXES],
  );
  return Number(row.bytes);
}

function render(
  results: RoundResult[],
  sizes: { engine: string; bytes: number }[],
  plan: { movements: number; writes: number; dropped: Dropped; machine: ReturnType<typeof machineInfo> },
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
    `The search's indexes (dropped without them: ${plan.dropped}) and the writes, ${formatNumber(plan.movements)} movements; ${formatNumber(plan.writes)} creates and ${formatNumber(plan.writes)} answers per round, ${CONCURRENCY} at once.`,
    `Machine: ${plan.machine.cpuModel}, ${plan.machine.cores} cores, Node ${plan.machine.node}, ${plan.machine.date}.`,
    `The search's indexes take ${sizes.map((size) => `${formatNumber(size.bytes / 1_048_576, 1)} MiB on ${size.engine}`).join(', ')} at ${formatNumber(plan.movements)} movements.`,
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
  ].join('\n');
}

main(process.argv.slice(2)).catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
