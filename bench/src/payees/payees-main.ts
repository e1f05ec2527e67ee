import 'reflect-metadata';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { dataSourceOptionsFromUrl, runTransferMigrations, systemClock } from '@giro/transfer-module';
import { DataSource } from 'typeorm';
import { MovementStore } from '../lookup-index/lookup-index-store';
import { seededRandom } from '../search/search-measure';
import { percentile } from '../stats';
import { createBenchDatabase, dropBenchDatabase, postgresReachable } from '../sweep/seed-postgres';
import { FIRST_NAMES, type PayeeSeedEngine, payeeSeedSql, SURNAMES } from './payees-seed-sql';

/**
 * `pnpm bench:payees [--payees N] [--engine sqlite|postgres|both] [--samples N]`: the payee book's search (the
 * store's searchPayees, what `GET /admin/payees` runs) on a book of N payees (1 000 000 by default), each kind of
 * search timed `samples` times with random values, against the goal of 100 ms at p99. Prints a markdown table on
 * stdout, progress on stderr; records nothing.
 */

const GOAL_P99_MS = 100;
const PAGE_SIZE = 50;
const DEFAULT_POSTGRES_URL = 'postgres://postgres@127.0.0.1:5432/test';
const BENCH_DATABASE = 'giro_bench_payees';

interface Plan {
  payees: number;
  engines: PayeeSeedEngine[];
  samples: number;
  postgresUrl: string;
}

interface SearchKind {
  name: string;
  /** The search's `q` and `after` for a random draw. */
  draw(random: () => number): { q?: string; after?: string };
}

function planFromArgs(args: string[]): Plan {
  const value = (flag: string) => {
    const at = args.indexOf(flag);
    return at === -1 ? undefined : args[at + 1];
  };
  const engine = value('--engine') ?? 'both';
  if (!['sqlite', 'postgres', 'both'].includes(engine)) throw new Error('--engine must be sqlite, postgres or both');
  const payees = Number(value('--payees') ?? 1_000_000);
  const samples = Number(value('--samples') ?? 200);
  if (!Number.isSafeInteger(payees) || payees < 1_000) throw new Error('--payees must be a whole number ≥ 1000');
  if (!Number.isSafeInteger(samples) || samples < 10) throw new Error('--samples must be a whole number ≥ 10');
  return {
    payees,
    engines: engine === 'both' ? ['sqlite', 'postgres'] : [engine as PayeeSeedEngine],
    samples,
    postgresUrl: process.env.BENCH_POSTGRES_URL ?? DEFAULT_POSTGRES_URL,
  };
}

/** The kinds of search an operator makes, over the seeded book's shape (payees-seed-sql.ts). */
function searchKinds(payees: number): SearchKind[] {
  const pick = <T>(random: () => number, list: readonly T[]) => list[Math.floor(random() * list.length)];
  const index = (random: () => number) => 1 + Math.floor(random() * payees);
  const addressOf = (i: number) => `${String(1 + (i % 40) * 7).padStart(3, '0')}0001${String(i).padStart(15, '0')}`;
  return [
    { name: 'first page, no search', draw: () => ({}) },
    { name: 'a later page (keyset)', draw: (random) => ({ after: addressOf(index(random)) }) },
    { name: 'a whole account', draw: (random) => ({ q: addressOf(index(random)) }) },
    { name: "an account's bank (3 digits)", draw: (random) => ({ q: addressOf(index(random)).slice(0, 3) }) },
    {
      name: 'a CUIT',
      draw: (random) => ({ q: `20${String(index(random) % 100_000_000).padStart(8, '0')}0` }),
    },
    { name: 'a first name (common prefix)', draw: (random) => ({ q: pick(random, FIRST_NAMES).slice(0, 3) }) },
    {
      // After an entry the prefix matches (its own first name's): the cursor's position read by its address.
      name: 'a first name, a later page',
      draw: (random) => {
        const after = index(random);
        return { q: FIRST_NAMES[after % FIRST_NAMES.length].slice(0, 3), after: addressOf(after) };
      },
    },
    {
      name: 'a whole name',
      draw: (random) => ({ q: `${pick(random, FIRST_NAMES)} ${pick(random, SURNAMES)}` }),
    },
    { name: 'a label', draw: (random) => ({ q: `proveedor ${index(random) * 10}`.slice(0, 14) }) },
    { name: 'nothing matches', draw: () => ({ q: 'zzz nadie' }) },
  ];
}

async function seeded(engine: PayeeSeedEngine, plan: Plan, dir: string): Promise<string> {
  const url = engine === 'sqlite' ? `sqlite:${join(dir, 'payees.sqlite')}` : undefined;
  const databaseUrl = url ?? (await createBenchDatabase(plan.postgresUrl, BENCH_DATABASE));
  const dataSource = await new DataSource(dataSourceOptionsFromUrl(databaseUrl)).initialize();
  try {
    if (url !== undefined) await runTransferMigrations(dataSource);
    await dataSource.query(payeeSeedSql(engine, plan.payees, Date.now()));
    await dataSource.query(engine === 'sqlite' ? 'ANALYZE' : 'ANALYZE "giro_payees"');
  } finally {
    await dataSource.destroy();
  }
  return databaseUrl;
}

async function measure(engine: PayeeSeedEngine, databaseUrl: string, plan: Plan, log: (line: string) => void) {
  const dataSource = await new DataSource(dataSourceOptionsFromUrl(databaseUrl)).initialize();
  const rows: string[] = [];
  let worst = 0;
  try {
    const store = new MovementStore(dataSource, systemClock);
    const random = seededRandom(7);
    for (const kind of searchKinds(plan.payees)) {
      const samples: number[] = [];
      for (let run = 0; run < plan.samples; run++) {
        const { q, after } = kind.draw(random);
        const started = performance.now();
        await store.searchPayees({ ...(q !== undefined && { q }), limit: PAGE_SIZE, ...(after && { after }) });
        samples.push(performance.now() - started);
      }
      const p50 = percentile(samples, 0.5);
      const p99 = percentile(samples, 0.99);
      worst = Math.max(worst, p99);
      log(`${engine}: ${kind.name}: p50 ${p50.toFixed(2)} p99 ${p99.toFixed(2)} ms`);
      rows.push(
        `| ${engine} | ${kind.name} | ${p50.toFixed(2)} | ${p99.toFixed(2)} | ${Math.max(...samples).toFixed(1)} |`,
      );
    }
  } finally {
    await dataSource.destroy();
  }
  return { rows, worst };
}

async function main(args: string[]): Promise<void> {
  const plan = planFromArgs(args);
  const started = performance.now();
  const log = (line: string) =>
    process.stderr.write(`[payees ${((performance.now() - started) / 1000).toFixed(0).padStart(4)} s] ${line}\n`);
  const dir = mkdtempSync(join(tmpdir(), 'giro-bench-payees-'));
  const rows: string[] = [];
  const verdicts: string[] = [];
  try {
    for (const engine of plan.engines) {
      if (engine === 'postgres' && !(await postgresReachable(plan.postgresUrl))) {
        log(`postgres: no server at BENCH_POSTGRES_URL, skipped`);
        continue;
      }
      const seedStarted = performance.now();
      const url = await seeded(engine, plan, dir);
      log(`${engine}: ${plan.payees} payees seeded in ${((performance.now() - seedStarted) / 1000).toFixed(1)} s`);
      try {
        const result = await measure(engine, url, plan, log);
        rows.push(...result.rows);
        verdicts.push(
          `${engine}: worst p99 ${result.worst.toFixed(2)} ms, ${result.worst <= GOAL_P99_MS ? 'within' : 'ABOVE'} the goal of ${GOAL_P99_MS} ms`,
        );
      } finally {
        if (engine === 'postgres') await dropBenchDatabase(plan.postgresUrl, BENCH_DATABASE);
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  console.log(`Payee search, ${plan.payees} payees, ${plan.samples} searches of each kind, pages of ${PAGE_SIZE}:\n`);
  console.log('| engine | search | p50 ms | p99 ms | max ms |\n| --- | --- | ---: | ---: | ---: |');
  console.log(rows.join('\n'));
  console.log(`\n${verdicts.join('\n')}`);
}

main(process.argv.slice(2)).catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
