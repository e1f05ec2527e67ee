import 'reflect-metadata';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { validateTransferIntent } from '@giro/transfer-module';
import { machineInfo } from '../machine';
import { formatNumber, markdownTable } from '../report/markdown-table';
import { writeResultsJson } from '../report/write-results';
import type { Backlog } from '../sweep/backlog';
import { postgresReachable } from '../sweep/seed-postgres';
import { transferRequestBody } from '../workload/transfer-request';
import { type BenchDatabase, postgresBenchDatabase, sqliteBenchDatabase } from './lookup-index-engines';
import {
  type LookupLatency,
  measureAnswers,
  measureCreates,
  measureLookups,
  type WriteCost,
} from './lookup-index-measure';

/**
 * `pnpm bench:lookup-index [--movements N] [--lookups N] [--writes N]`: what an index on `network_id` would buy
 * and cost (issue 16). For each engine, a table of N answered movements (default 200 000); then three rounds —
 * no index, a partial index over the rows with a network id, no index again (the third shows the drift of the
 * machine between rounds) — each measuring a lookup by network id and the writes an index could slow: the
 * create path's (the first answer sets the network id) and a sweep's quiet answers. Prints a table, writes
 * bench/results/lookup-index.json.
 */

const DEFAULT_POSTGRES_URL = 'postgres://postgres@127.0.0.1:5432/test';
const CONCURRENCY = 16;
const ROUNDS = [
  { label: 'no index', index: false },
  { label: 'partial index', index: true },
  { label: 'no index, again', index: false },
] as const;

interface RoundResult {
  engine: BenchDatabase['engine'];
  round: string;
  lookup: LookupLatency;
  create: WriteCost;
  answer: WriteCost;
}

function argument(args: string[], name: string, fallback: number): number {
  const index = args.indexOf(name);
  if (index === -1) return fallback;
  const value = Number(args[index + 1]);
  if (!Number.isSafeInteger(value) || value < 1) throw new Error(`${name} must be a positive integer`);
  return value;
}

async function main(args: string[]): Promise<void> {
  const movements = argument(args, '--movements', 200_000);
  const lookups = argument(args, '--lookups', 30);
  const writes = argument(args, '--writes', 2_000);
  const validated = validateTransferIntent(transferRequestBody(), {});
  if (!validated.ok) throw new Error('the benchmark transfer is invalid');
  const { originId: _none, ...template } = { ...validated.intent, originId: 0 };
  const backlog: Backlog = { firstOriginId: 1, warmup: 0, count: movements, nowMs: Date.now() };
  const log = (message: string) => process.stderr.write(`[lookup-index] ${message}\n`);
  const workDir = mkdtempSync(join(tmpdir(), 'giro-lookup-index-'));
  const results: RoundResult[] = [];
  try {
    const serverUrl = process.env.BENCH_POSTGRES_URL ?? DEFAULT_POSTGRES_URL;
    const engines: (() => Promise<BenchDatabase>)[] = [
      () => sqliteBenchDatabase(join(workDir, 'giro.sqlite'), backlog),
    ];
    if (await postgresReachable(serverUrl)) engines.push(() => postgresBenchDatabase(serverUrl, backlog));
    else log('Postgres skipped: no server answered (set BENCH_POSTGRES_URL)');
    let nextOriginId = movements + 1;
    for (const open of engines) {
      const database = await open();
      log(`${database.engine}: ${movements} movements seeded`);
      try {
        for (const round of ROUNDS) {
          if (round.index || results.some((result) => result.engine === database.engine)) {
            await database.setIndex(round.index);
          }
          const lookup = await measureLookups(database, { first: 1, count: movements }, lookups);
          const create = await measureCreates(database, template, nextOriginId, writes, CONCURRENCY);
          nextOriginId += writes;
          const answer = await measureAnswers(database, template, writes, CONCURRENCY);
          results.push({ engine: database.engine, round: round.label, lookup, create, answer });
          log(`${database.engine}, ${round.label}: lookup p50 ${lookup.p50Ms.toFixed(2)} ms`);
        }
      } finally {
        await database.close();
      }
    }
  } finally {
    rmSync(workDir, { recursive: true, force: true });
  }
  const machine = machineInfo();
  writeResultsJson('lookup-index', { machine, movements, lookups, writes, concurrency: CONCURRENCY, results });
  console.log(render(results, { movements, lookups, writes, machine }));
}

function render(
  results: RoundResult[],
  plan: { movements: number; lookups: number; writes: number; machine: ReturnType<typeof machineInfo> },
): string {
  const optional = (value: number | null, digits = 0) => (value === null ? '—' : formatNumber(value, digits));
  const rows = results.map((result) => [
    result.engine,
    result.round,
    `${formatNumber(result.lookup.p50Ms, 2)} / ${formatNumber(result.lookup.p99Ms, 2)}`,
    formatNumber(result.create.microsPerOperation),
    optional(result.create.walBytesPerOperation),
    optional(result.create.indexBytesPerOperation),
    formatNumber(result.answer.microsPerOperation),
    optional(result.answer.walBytesPerOperation),
    optional(result.answer.indexBytesPerOperation),
  ]);
  return [
    `Lookup by network id and write cost, ${formatNumber(plan.movements)} movements; ${plan.lookups} lookups, ${formatNumber(plan.writes)} creates and ${formatNumber(plan.writes)} answers per round, ${CONCURRENCY} at once.`,
    `Machine: ${plan.machine.cpuModel}, ${plan.machine.cores} cores, Node ${plan.machine.node}, ${plan.machine.date}.`,
    '',
    markdownTable(
      [
        'engine',
        'round',
        'lookup p50 / p99 ms',
        'create µs each',
        'create WAL B',
        'create index B',
        'answer µs each',
        'answer WAL B',
        'answer index B',
      ],
      rows,
      ['l', 'l', 'r', 'r', 'r', 'r', 'r', 'r', 'r'],
    ),
  ].join('\n');
}

main(process.argv.slice(2)).catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
