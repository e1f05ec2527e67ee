import 'reflect-metadata';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import {
  dataSourceOptionsFromUrl,
  type MovementStatusChangedEvent,
  SweepService,
  TRANSFER_EVENTS,
  TransferModule,
  TransferService,
} from '@giro/transfer-module';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { EventEmitter2, EventEmitterModule } from '@nestjs/event-emitter';
import { DataSource } from 'typeorm';
import { giroBankOptions } from '../bank/bank-settings';
import { type SandboxProcess, startSandboxProcess } from '../sandbox/sandbox-process';
import { percentile } from '../stats';
import { createBenchDatabase, dropBenchDatabase, postgresReachable } from '../sweep/seed-postgres';
import { transferRequestBody } from '../workload/transfer-request';

/**
 * `pnpm bench:release [--transfers N] [--engine sqlite|postgres] [--in-flight N] [--create N] [--database name]`: the
 * release of N transfers
 * scheduled for one moment (1 000 000 by default) against the issue's goals, under the same bank budget as the
 * create path it is compared with:
 *  - rate: N released and sent by the sweep ÷ the time, against the create path's rate (TransferService, as many
 *    at once as the budget lets through; `--create` of them, 20 000 or N by default) — goal ≥ 0.9;
 *  - memory: the process's RSS when N were sent ÷ when the first 10 000 were (half of N, when N is smaller: a
 *    reduced run's figure, not the goal's) — goal ≤ 1.2;
 *  - fair share: while the big account drains, another account schedules a transfer every 200 ms for the next
 *    moment; the wait from each one's moment to its first send (its history's time) — goal p99 ≤ 2 s — and how
 *    long after its moment its creation returned (on a loaded database a probe may not exist yet at its moment),
 *    and the wait split at its release (the claim that took it);
 *  - none early: no transfer sent before its moment (history against execute_at_ms).
 * giro runs with Nest's event emitter, as in the reconciler: every release and every answer is read and announced.
 * The memory's split (V8 heap, external, RSS) is logged every 10 000 sent; with `node --expose-gc` each reading
 * follows a full collection, so the heap's figure is what is live. The sandbox bank runs as a process of its own. Prints a markdown table on stdout, progress on stderr. On Postgres
 * the run creates and drops a database of its own (`--database`, lowercase; two runs at once need two names).
 */

const DEFAULT_POSTGRES_URL = 'postgres://postgres@127.0.0.1:5432/test';
const BENCH_DATABASE = 'giro_bench_release';
const RSS_CHECKPOINT = 10_000;
const MIN_TRANSFERS = 1_000;
const PROBE_EVERY_MS = 200;
const SEED_CHUNK = 100_000;
/** The memory's split is logged (stderr) every this many sent: its shape over the run. */
const MEMORY_LOG_EVERY = 10_000;
const OTHER_ACCOUNT = { address: '0000003110000000000311', personId: '30712345671' };

interface Plan {
  transfers: number;
  engine: 'sqlite' | 'postgres';
  inFlight: number;
  createSample: number;
  /** When the first RSS is read: after this many were sent. */
  rssCheckpoint: number;
  postgresUrl: string;
  database: string;
}

function planFromArgs(args: string[]): Plan {
  const value = (flag: string) => {
    const at = args.indexOf(flag);
    return at === -1 ? undefined : args[at + 1];
  };
  const engine = value('--engine') ?? 'sqlite';
  if (engine !== 'sqlite' && engine !== 'postgres') throw new Error('--engine must be sqlite or postgres');
  const transfers = Number(value('--transfers') ?? 1_000_000);
  const inFlight = Number(value('--in-flight') ?? 16);
  const createSample = Number(value('--create') ?? Math.min(transfers, 20_000));
  if (!Number.isSafeInteger(transfers) || transfers < MIN_TRANSFERS) {
    throw new Error(`--transfers must be a whole number ≥ ${MIN_TRANSFERS}`);
  }
  if (!Number.isSafeInteger(inFlight) || inFlight < 1) throw new Error('--in-flight must be a whole number ≥ 1');
  if (!Number.isSafeInteger(createSample) || createSample < 1) throw new Error('--create must be a whole number ≥ 1');
  const database = value('--database') ?? BENCH_DATABASE;
  if (!/^[a-z_][a-z0-9_]*$/.test(database)) throw new Error('--database must be a lowercase name');
  return {
    transfers,
    engine,
    inFlight,
    createSample,
    rssCheckpoint: Math.min(RSS_CHECKPOINT, Math.floor(transfers / 2)),
    postgresUrl: process.env.BENCH_POSTGRES_URL ?? DEFAULT_POSTGRES_URL,
    database,
  };
}

/**
 * giro as the reconciler runs it on this path: TransferModule with Nest's event emitter, so that every committed
 * change is read and announced (each claim's releases, each send's answer) as the reconciler's listeners hear them.
 */
async function giroApp(sandbox: SandboxProcess, databaseUrl: string, plan: Plan) {
  @Module({
    imports: [
      EventEmitterModule.forRoot(),
      TransferModule.forRoot({
        bank: giroBankOptions(sandbox.bank, plan.inFlight),
        databaseUrl,
        runMigrations: true,
        budget: { maxInFlight: plan.inFlight },
        sweep: { concurrency: plan.inFlight, batchSize: 100 },
      }),
    ],
  })
  class BenchGiroModule {}
  const app = await NestFactory.createApplicationContext(BenchGiroModule, { logger: ['error', 'warn'] });
  return app;
}

/** Counts the releases giro announces (`SCHEDULED` → `PENDING`): each released transfer's, once. */
function countReleaseAnnouncements(emitter: EventEmitter2): { count: number } {
  const counted = { count: 0 };
  emitter.on(TRANSFER_EVENTS.statusChanged, (event: MovementStatusChangedEvent) => {
    if (event.from === 'SCHEDULED' && event.to === 'PENDING') counted.count += 1;
  });
  return counted;
}

async function databaseUrlFor(plan: Plan, dir: string, name: string): Promise<string> {
  if (plan.engine === 'sqlite') return `sqlite:${join(dir, `${name}.sqlite`)}`;
  await dropBenchDatabase(plan.postgresUrl, plan.database);
  return createBenchDatabase(plan.postgresUrl, plan.database);
}

/** The create path's rate: `createSample` transfers, `inFlight` at once, each sent before it returns. */
async function createRate(sandbox: SandboxProcess, plan: Plan, dir: string, log: (line: string) => void) {
  const app = await giroApp(sandbox, await databaseUrlFor(plan, dir, 'create'), plan);
  try {
    const transfers = app.get(TransferService);
    const request = transferRequestBody();
    let next = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: plan.inFlight }, async () => {
        while (next < plan.createSample) {
          next += 1;
          await transfers.requestTransfer(request);
        }
      }),
    );
    const perSecond = plan.createSample / ((performance.now() - started) / 1000);
    log(`create path: ${plan.createSample} in flight ${plan.inFlight}: ${perSecond.toFixed(0)}/s`);
    return perSecond;
  } finally {
    await app.close();
  }
}

/** N copies of the scheduled transfer `template`, SCHEDULED for `moment`, from the template's account. */
async function seedScheduled(
  query: (sql: string, parameters?: unknown[]) => Promise<Record<string, unknown>[]>,
  plan: Plan,
  template: number,
  moment: number,
): Promise<void> {
  const [sample] = await query(`SELECT * FROM "giro_movements" WHERE "origin_id" = ?`, [template]);
  const columns = Object.keys(sample)
    .filter((column) => !['origin_id', 'status', 'execute_at_ms', 'next_query_at_ms'].includes(column))
    .map((column) => `"${column}"`);
  // Far above the ids the allocator hands out these days.
  const base = (Date.now() + 30 * 86_400_000) * 1000;
  for (let from = 0; from < plan.transfers; from += SEED_CHUNK) {
    const to = Math.min(plan.transfers, from + SEED_CHUNK) - 1;
    await query(
      `WITH RECURSIVE n(i) AS (SELECT CAST(? AS bigint) UNION ALL SELECT i + 1 FROM n WHERE i < ?)
      INSERT INTO "giro_movements" ("origin_id", "status", "execute_at_ms", "next_query_at_ms", ${columns.join(', ')})
      SELECT n.i, 'SCHEDULED', ?, NULL, ${columns.map((column) => `t.${column}`).join(', ')}
      FROM n, "giro_movements" t WHERE t."origin_id" = ?`,
      [base + from, base + to, moment, template],
    );
  }
}

async function release(sandbox: SandboxProcess, plan: Plan, dir: string, log: (line: string) => void) {
  const databaseUrl = await databaseUrlFor(plan, dir, 'release');
  const app = await giroApp(sandbox, databaseUrl, plan);
  // The bench's own connection: seeding, counting, and the figures at the end.
  const dataSource = await new DataSource(dataSourceOptionsFromUrl(databaseUrl)).initialize();
  const query = async (sql: string, parameters: unknown[] = []) =>
    dataSource.query(plan.engine === 'postgres' ? numbered(sql) : sql, parameters);
  try {
    const transfers = app.get(TransferService);
    const sweeper = app.get(SweepService);
    const announced = countReleaseAnnouncements(app.get(EventEmitter2));
    const { movement } = await transfers.requestTransfer({
      ...transferRequestBody('payroll'),
      executeAt: new Date(Date.now() + 60_000).toISOString(),
    });
    // The moment is now: every seeded transfer is due at once (waiting for the clock would only add idle time).
    const moment = Date.now();
    log(`seeding ${plan.transfers} transfers scheduled for one moment…`);
    await seedScheduled(query, plan, movement.originId, moment);
    await query(`UPDATE "giro_movements" SET "execute_at_ms" = ? WHERE "origin_id" = ?`, [moment, movement.originId]);
    await query(plan.engine === 'postgres' ? 'ANALYZE "giro_movements"' : 'ANALYZE');
    const total = plan.transfers + 1;

    const countWhere = async (condition: string) =>
      Number((await query(`SELECT COUNT(*) AS "n" FROM "giro_movements" WHERE ${condition}`))[0].n);
    const unsent = `"status" IN ('SCHEDULED', 'PENDING')`;
    const probes: number[] = [];
    /** When each probe's creation returned: a probe stored after its moment was due only from then. */
    const probesStoredAt = new Map<number, number>();
    // How long after its moment each probe's creation returned: a wait counted from the moment includes it.
    const probeCreationsLate: number[] = [];
    let draining = true;
    let atFirst: MemoryReading | undefined;
    let rssPeak = 0;
    let nextMemoryLog = MEMORY_LOG_EVERY;
    const probing = (async () => {
      while (draining) {
        await sleep(PROBE_EVERY_MS);
        if (!draining) break;
        const executeAtMs = Date.now() + 50;
        const probe = await transfers.requestTransfer({
          ...transferRequestBody('urgent'),
          from: {
            addressType: 'CBU_CVU',
            address: OTHER_ACCOUNT.address,
            owner: { personIdType: 'CUI', personId: OTHER_ACCOUNT.personId },
          },
          executeAt: new Date(executeAtMs).toISOString(),
        });
        probes.push(probe.movement.originId);
        probesStoredAt.set(probe.movement.originId, Date.now());
        probeCreationsLate.push(Date.now() - executeAtMs);
      }
    })();
    const sampling = (async () => {
      while (draining) {
        await sleep(500);
        rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
        const sent = total + probes.length - (await countWhere(unsent));
        if (atFirst === undefined && sent >= plan.rssCheckpoint) atFirst = memoryReading();
        if (sent >= nextMemoryLog) {
          log(`sent ${sent}: ${describeMemory(memoryReading())}`);
          nextMemoryLog += MEMORY_LOG_EVERY;
        }
        if (sent >= total) draining = false;
      }
    })();

    const started = performance.now();
    let sweeps = 0;
    for (;;) {
      const report = await sweeper.sweep();
      sweeps += 1;
      if (!draining && (await countWhere(unsent)) === 0) break;
      if (report.claimed === 0) await sleep(20);
    }
    const seconds = (performance.now() - started) / 1000;
    await Promise.all([probing, sampling]);
    const atEnd = memoryReading();
    log(`released and sent ${total} (and ${probes.length} probes) in ${seconds.toFixed(1)} s over ${sweeps} sweeps`);
    log(`releases announced: ${announced.count}`);

    // A transfer's first send: the history row that took it out of PENDING.
    const firstSends = `SELECT m."origin_id", m."execute_at_ms" AS "at", MIN(h."at_ms") AS "sent" FROM "giro_movements" m
      JOIN "giro_movement_history" h ON h."origin_id" = m."origin_id" AND h."from_status" = 'PENDING'`;
    // Its release: the history row that took it out of SCHEDULED (the claim that leased it).
    const releases = `SELECT MIN(h."at_ms") AS "released" FROM "giro_movement_history" h
      WHERE h."origin_id" = ? AND h."from_status" = 'SCHEDULED'`;
    const waits: number[] = [];
    const waitsFromStored: number[] = [];
    const untilReleased: number[] = [];
    const releasedToSent: number[] = [];
    for (const originId of probes) {
      const [row] = await query(`${firstSends} WHERE m."origin_id" = ? GROUP BY m."origin_id", m."execute_at_ms"`, [
        originId,
      ]);
      // A probe whose moment had passed before it was stored is no scheduled transfer (sent as it is created).
      if (!row || row.at === null) continue;
      waits.push(Number(row.sent) - Number(row.at));
      waitsFromStored.push(Number(row.sent) - Math.max(Number(row.at), probesStoredAt.get(originId) ?? 0));
      const [release] = await query(releases, [originId]);
      untilReleased.push(Number(release.released) - Number(row.at));
      releasedToSent.push(Number(row.sent) - Number(release.released));
    }
    const early = (
      await query(`SELECT COUNT(*) AS "n" FROM (${firstSends} GROUP BY m."origin_id", m."execute_at_ms") s
        WHERE s."sent" < s."at"`)
    )[0].n;
    return {
      perSecond: total / seconds,
      rssRatio: atFirst === undefined ? Number.NaN : atEnd.rss / atFirst.rss,
      atFirst,
      atEnd,
      rssPeak,
      waits,
      waitsFromStored,
      untilReleased,
      releasedToSent,
      probeCreationsLate,
      early: Number(early),
      announced: announced.count,
      probes: probes.length,
    };
  } finally {
    await dataSource.destroy();
    await app.close();
  }
}

/** The process's memory, split: V8's heap (live objects after a collection when run with `--expose-gc`), buffers
 * outside it, and the rest of the RSS (code, stacks, the allocator's pages — what no JavaScript structure holds). */
interface MemoryReading {
  rss: number;
  heapUsed: number;
  heapTotal: number;
  external: number;
  /** Whether a full collection ran first (`node --expose-gc`): heapUsed is then what is live. */
  collected: boolean;
}

function describeMemory(reading: MemoryReading): string {
  const mib = (bytes: number) => (bytes / 1024 / 1024).toFixed(0);
  return `RSS ${mib(reading.rss)} MiB, V8 heap used ${mib(reading.heapUsed)} of ${mib(reading.heapTotal)}, external ${mib(reading.external)}`;
}

function memoryReading(): MemoryReading {
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  const { rss, heapUsed, heapTotal, external } = process.memoryUsage();
  return { rss, heapUsed, heapTotal, external, collected: gc !== undefined };
}

/** Where the RSS went between the checkpoint and the end: V8's heap, buffers outside it, and the rest. */
function memoryLine(
  first: MemoryReading | undefined,
  end: MemoryReading,
  checkpoint: number,
  mib: (bytes: number) => string,
): string {
  const pair = (of: (reading: MemoryReading) => number) => `${first ? mib(of(first)) : 'n/a'} → ${mib(of(end))}`;
  const rest = (reading: MemoryReading) => reading.rss - reading.heapTotal - reading.external;
  const collected = end.collected ? 'after a full collection' : 'without a collection (run node with --expose-gc)';
  return `Memory at ${checkpoint.toLocaleString('en')} sent → at the end, MiB (${collected}): RSS ${pair((r) => r.rss)}, V8 heap used ${pair((r) => r.heapUsed)} of ${pair((r) => r.heapTotal)}, external ${pair((r) => r.external)}, the rest of the RSS (code, stacks, freed pages the allocator keeps) ${pair(rest)}`;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** `?` placeholders spelled `$1, $2, …` for Postgres. */
function numbered(sql: string): string {
  let index = 0;
  return sql.replace(/\?/g, () => `$${++index}`);
}

async function main(): Promise<void> {
  const plan = planFromArgs(process.argv.slice(2));
  const log = (line: string) => process.stderr.write(`${line}\n`);
  if (plan.engine === 'postgres' && !(await postgresReachable(plan.postgresUrl))) {
    throw new Error(`no Postgres at ${plan.postgresUrl}`);
  }
  const dir = mkdtempSync(join(tmpdir(), 'giro-bench-release-'));
  const sandbox = await startSandboxProcess(dir);
  try {
    const create = await createRate(sandbox, plan, dir, log);
    const released = await release(sandbox, plan, dir, log);
    const mib = (bytes: number) => (bytes / 1024 / 1024).toFixed(0);
    const p50p99 = (values: number[]) =>
      values.length === 0 ? 'n/a' : `${percentile(values, 0.5).toFixed(0)} / ${percentile(values, 0.99).toFixed(0)}`;
    process.stdout.write(
      [
        `Release of ${plan.transfers.toLocaleString('en')} transfers scheduled for one moment (${plan.engine}, ${plan.inFlight} bank calls in flight)`,
        '',
        `| create /s | release /s | release ÷ create (goal ≥ 0.9) | RSS at ${plan.rssCheckpoint.toLocaleString('en')} / at the end / peak MiB | end ÷ ${plan.rssCheckpoint.toLocaleString('en')} (goal ≤ 1.2 from 10 000) | other account: probes, wait p50 / p99 ms (goal p99 ≤ 2 000) | from its moment or its creation's return, whichever is later, p50 / p99 ms | of which: moment to release p50 / p99 ms | release to first send p50 / p99 ms | probe created after its moment p50 / p99 ms | sent early |`,
        '| --------: | ---------: | ----------------------------: | ------------------------------------: | ------------------------: | ----------------------------------------------------------: | -----------------------------------------------------------------------: | ---------------------------------------: | ---------------------------------: | ------------------------------------------: | ---------: |',
        `| ${create.toFixed(0)} | ${released.perSecond.toFixed(0)} | ${(released.perSecond / create).toFixed(2)} | ${released.atFirst ? mib(released.atFirst.rss) : 'n/a'} / ${mib(released.atEnd.rss)} / ${mib(released.rssPeak)} | ${released.rssRatio.toFixed(2)} | ${released.waits.length}: ${p50p99(released.waits)} | ${p50p99(released.waitsFromStored)} | ${p50p99(released.untilReleased)} | ${p50p99(released.releasedToSent)} | ${p50p99(released.probeCreationsLate)} | ${released.early} |`,
        '',
        memoryLine(released.atFirst, released.atEnd, plan.rssCheckpoint, mib),
        '',
        `Releases announced (\`${TRANSFER_EVENTS.statusChanged}\` SCHEDULED → PENDING): ${released.announced.toLocaleString('en')} of ${(plan.transfers + 1).toLocaleString('en')} transfers and ${released.probes} probes (a probe whose moment passed before it was stored is sent as it is created, unannounced)`,
        '',
      ].join('\n'),
    );
  } finally {
    await sandbox.stop();
    if (plan.engine === 'postgres') await dropBenchDatabase(plan.postgresUrl, plan.database).catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
