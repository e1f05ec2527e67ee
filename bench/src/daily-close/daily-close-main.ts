import 'reflect-metadata';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import {
  businessDayBounds,
  completeCbuCvu,
  completeCuit,
  dataSourceOptionsFromUrl,
  runTransferMigrations,
  systemClock,
} from '@giro/transfer-module';
import { DataSource } from 'typeorm';
import { MovementStore } from '../lookup-index/lookup-index-store';
import { createBenchDatabase, dropBenchDatabase, postgresReachable } from '../sweep/seed-postgres';
import {
  type CloseSeed,
  type CloseSeedEngine,
  insertCancellationsSql,
  insertCloseMovementsSql,
  insertPendingHistorySql,
} from './daily-close-seed-sql';

/**
 * `pnpm bench:daily-close [--transfers N] [--engine sqlite|postgres|both] [--samples N]`: the daily close (the
 * store's dailyCloseFigures, what `GET /admin/reports/daily` runs) of one source account whose day holds N transfers
 * (1 000 000 by default), timed `samples` times after one cold read, for the account alone and for every account,
 * against the goals of 2 s on Postgres and 5 s on SQLite. Wall time, and CPU time: this process's on SQLite (which
 * runs in it), the server backend's on Postgres (one connection, its /proc/<pid>/stat: the server must be local).
 * CPU time is what a busy machine does not inflate. Prints a markdown table on stdout, progress on stderr.
 */

const GOALS_MS: Record<CloseSeedEngine, number> = { postgres: 2_000, sqlite: 5_000 };
const DEFAULT_POSTGRES_URL = 'postgres://postgres@127.0.0.1:5432/test';
const BENCH_DATABASE = 'giro_bench_daily_close';
const DAY = '2026-11-27';

interface Plan {
  transfers: number;
  engines: CloseSeedEngine[];
  samples: number;
  postgresUrl: string;
}

function planFromArgs(args: string[]): Plan {
  const value = (flag: string) => {
    const at = args.indexOf(flag);
    return at === -1 ? undefined : args[at + 1];
  };
  const engine = value('--engine') ?? 'both';
  if (!['sqlite', 'postgres', 'both'].includes(engine)) throw new Error('--engine must be sqlite, postgres or both');
  const transfers = Number(value('--transfers') ?? 1_000_000);
  const samples = Number(value('--samples') ?? 5);
  if (!Number.isSafeInteger(transfers) || transfers < 1_000)
    throw new Error('--transfers must be a whole number ≥ 1000');
  if (!Number.isSafeInteger(samples) || samples < 1) throw new Error('--samples must be a whole number ≥ 1');
  return {
    transfers,
    engines: engine === 'both' ? ['sqlite', 'postgres'] : [engine as CloseSeedEngine],
    samples,
    postgresUrl: process.env.BENCH_POSTGRES_URL ?? DEFAULT_POSTGRES_URL,
  };
}

function seedOf(transfers: number): CloseSeed {
  const { start, end } = businessDayBounds(DAY);
  return {
    transfers,
    firstOriginId: 1_000_001,
    startMs: start.getTime(),
    endMs: end.getTime(),
    account: completeCbuCvu('0170001', '0000000000012'),
    personId: completeCuit('3071234567') ?? '',
    destination: completeCbuCvu('0000003', '1000000000042'),
  };
}

async function seeded(engine: CloseSeedEngine, plan: Plan, seed: CloseSeed, dir: string): Promise<string> {
  const databaseUrl =
    engine === 'sqlite'
      ? `sqlite:${join(dir, 'close.sqlite')}`
      : await createBenchDatabase(plan.postgresUrl, BENCH_DATABASE);
  const dataSource = await new DataSource(dataSourceOptionsFromUrl(databaseUrl)).initialize();
  try {
    await runTransferMigrations(dataSource);
    await dataSource.query(insertCloseMovementsSql(engine, seed));
    await dataSource.query(insertPendingHistorySql(seed));
    await dataSource.query(insertCancellationsSql(seed));
    if (engine === 'postgres') await dataSource.query('VACUUM ANALYZE "giro_movements"');
    else await dataSource.query('ANALYZE');
  } finally {
    await dataSource.destroy();
  }
  return databaseUrl;
}

interface Timing {
  wallMs: number;
  cpuMs: number;
}

/** The CPU time used so far, in ms: this process's, or a local Postgres backend's (`pid`). */
function cpuMsOf(backendPid: number | undefined): number {
  if (backendPid === undefined) {
    const used = process.cpuUsage();
    return (used.user + used.system) / 1000;
  }
  // /proc/<pid>/stat: utime and stime are fields 14 and 15 (after the command's parenthesis), in clock ticks (100 Hz).
  const fields = readFileSync(`/proc/${backendPid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

async function timed(work: () => Promise<unknown>, backendPid: number | undefined): Promise<Timing> {
  const cpu = cpuMsOf(backendPid);
  const started = performance.now();
  await work();
  return { wallMs: performance.now() - started, cpuMs: cpuMsOf(backendPid) - cpu };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function measure(engine: CloseSeedEngine, databaseUrl: string, plan: Plan, seed: CloseSeed) {
  // One connection on Postgres, so that its backend's CPU time is the close's.
  const options = dataSourceOptionsFromUrl(databaseUrl, engine === 'postgres' ? { poolSize: 1 } : {});
  const dataSource = await new DataSource(options).initialize();
  const rows: string[] = [];
  let worst = 0;
  let worstCpu = 0;
  try {
    const backendPid =
      engine === 'postgres' ? Number((await dataSource.query('SELECT pg_backend_pid() AS pid'))[0].pid) : undefined;
    const store = new MovementStore(dataSource, systemClock);
    const query = { startMs: seed.startMs, endMs: seed.endMs };
    for (const [name, close] of [
      ['one account', { ...query, account: seed.account }],
      ['every account', query],
    ] as const) {
      const figures = await store.dailyCloseFigures(close);
      const created = figures.reduce((sum, one) => sum + one.created.count, 0);
      if (created !== plan.transfers) throw new Error(`the close counted ${created} transfers, not ${plan.transfers}`);
      const cold = await timed(() => store.dailyCloseFigures(close), backendPid);
      const warm: Timing[] = [];
      for (let sample = 0; sample < plan.samples; sample++) {
        warm.push(await timed(() => store.dailyCloseFigures(close), backendPid));
      }
      const wall = median(warm.map((one) => one.wallMs));
      const cpu = median(warm.map((one) => one.cpuMs));
      worst = Math.max(worst, wall);
      worstCpu = Math.max(worstCpu, cpu);
      rows.push(`| ${engine} | ${name} | ${cold.wallMs.toFixed(0)} | ${wall.toFixed(0)} | ${cpu.toFixed(0)} |`);
    }
  } finally {
    await dataSource.destroy();
  }
  return { rows, worst, worstCpu };
}

async function main(args: string[]): Promise<void> {
  const plan = planFromArgs(args);
  const started = performance.now();
  const log = (line: string) =>
    process.stderr.write(`[daily-close ${((performance.now() - started) / 1000).toFixed(0).padStart(4)} s] ${line}\n`);
  const dir = mkdtempSync(join(tmpdir(), 'giro-bench-close-'));
  const seed = seedOf(plan.transfers);
  const rows: string[] = [];
  const verdicts: string[] = [];
  try {
    for (const engine of plan.engines) {
      if (engine === 'postgres' && !(await postgresReachable(plan.postgresUrl))) {
        log('postgres: no server at BENCH_POSTGRES_URL, skipped');
        continue;
      }
      const seedStarted = performance.now();
      const url = await seeded(engine, plan, seed, dir);
      log(
        `${engine}: ${plan.transfers} transfers seeded in ${((performance.now() - seedStarted) / 1000).toFixed(1)} s`,
      );
      try {
        const result = await measure(engine, url, plan, seed);
        rows.push(...result.rows);
        log(result.rows.join('\n'));
        const goal = GOALS_MS[engine];
        verdicts.push(
          `${engine}: ${result.worst.toFixed(0)} ms wall, ${result.worstCpu.toFixed(0)} ms CPU (medians, the slower of the two); the goal ${goal} ms: wall ${result.worst <= goal ? 'within' : 'ABOVE'}, CPU ${result.worstCpu <= goal ? 'within' : 'ABOVE'}`,
        );
      } finally {
        if (engine === 'postgres') await dropBenchDatabase(plan.postgresUrl, BENCH_DATABASE);
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  console.log(
    `Daily close, one account's day of ${plan.transfers} transfers, ${plan.samples} warm reads after a cold one:\n`,
  );
  console.log(
    '| engine | close of | cold ms | median ms | median CPU ms (SQLite: this process; Postgres: its backend) |\n| --- | --- | ---: | ---: | ---: |',
  );
  console.log(rows.join('\n'));
  console.log(`\n${verdicts.join('\n')}`);
}

main(process.argv.slice(2)).catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
