import 'reflect-metadata';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import {
  completeCbuCvu,
  completeCuit,
  dataSourceOptionsFromUrl,
  runTransferMigrations,
  systemClock,
  validateTransferIntent,
} from '@giro/transfer-module';
import type { TransferIntent } from '@giro/transfer-module/domain';
import { DataSource } from 'typeorm';
import {
  intentWithOriginId,
  MovementStore,
  type MovementStoreInstance,
  writeCreatePath,
} from '../lookup-index/lookup-index-store';
import { percentile } from '../stats';
import { createBenchDatabase, dropBenchDatabase, postgresReachable } from '../sweep/seed-postgres';
import { type PayeeSeedEngine, payeeSeedSql } from './payees-seed-sql';

/**
 * `pnpm bench:payee-gate [--engine sqlite|postgres|both] [--rounds N] [--creates N] [--payees N]`: what the create
 * path's payee read (the blocked / new-payee check, `payeeGate`) costs a create. Blocks of `creates` sequential
 * creates (the intent recorded, then the bank's first answer, as MovementSender writes them) with the read before
 * each and without it, alternated `rounds` times (the order swapped every round), on a payee book of `payees`
 * entries. Prints a markdown table on stdout (medians over the rounds, with their spread), progress on stderr.
 */

const DEFAULT_POSTGRES_URL = 'postgres://postgres@127.0.0.1:5432/test';
const BENCH_DATABASE = 'giro_bench_payee_gate';
const OWNER = 'payee-gate-bench';
const WARMUP_CREATES = 100;

interface Plan {
  engines: PayeeSeedEngine[];
  rounds: number;
  creates: number;
  payees: number;
  postgresUrl: string;
}

function planFromArgs(args: string[]): Plan {
  const value = (flag: string) => {
    const at = args.indexOf(flag);
    return at === -1 ? undefined : args[at + 1];
  };
  const engine = value('--engine') ?? 'both';
  if (!['sqlite', 'postgres', 'both'].includes(engine)) throw new Error('--engine must be sqlite, postgres or both');
  const whole = (flag: string, fallback: number, least: number) => {
    const number = Number(value(flag) ?? fallback);
    if (!Number.isSafeInteger(number) || number < least) throw new Error(`${flag} must be a whole number ≥ ${least}`);
    return number;
  };
  return {
    engines: engine === 'both' ? ['sqlite', 'postgres'] : [engine as PayeeSeedEngine],
    rounds: whole('--rounds', 8, 2),
    creates: whole('--creates', 300, 10),
    payees: whole('--payees', 100_000, 1_000),
    postgresUrl: process.env.BENCH_POSTGRES_URL ?? DEFAULT_POSTGRES_URL,
  };
}

const PAYEE_CUIT = completeCuit('2012345678') as string;

/** A transfer to `to`, which the payee book knows (the read finds its row, as for a supplier paid before). */
function templateTo(to: string): Omit<TransferIntent, 'originId'> {
  const from = completeCbuCvu('0170001', '0000000000012') as string;
  const validated = validateTransferIntent({
    originId: 1,
    from: {
      addressType: 'CBU_CVU',
      address: from,
      owner: { personIdType: 'CUI', personId: completeCuit('3071234567') },
    },
    to: { addressType: 'CBU_CVU', address: to, owner: { personIdType: 'CUI', personId: PAYEE_CUIT } },
    body: { currencyId: '032', amount: '1234.50', description: 'Factura', concept: 'VAR' },
  });
  if (!validated.ok) throw new Error(`the bench's transfer is invalid: ${JSON.stringify(validated.violations)}`);
  const { originId: _, ...template } = validated.intent;
  return template;
}

async function opened(engine: PayeeSeedEngine, plan: Plan, dir: string): Promise<{ url: string; ds: DataSource }> {
  const url =
    engine === 'sqlite'
      ? `sqlite:${join(dir, 'payee-gate.sqlite')}`
      : await createBenchDatabase(plan.postgresUrl, BENCH_DATABASE);
  const ds = await new DataSource(dataSourceOptionsFromUrl(url)).initialize();
  if (engine === 'sqlite') await runTransferMigrations(ds);
  await ds.query(payeeSeedSql(engine, plan.payees, Date.now()));
  await ds.query(engine === 'sqlite' ? 'ANALYZE' : 'ANALYZE "giro_payees"');
  return { url, ds };
}

/** Milliseconds per create over `count` sequential creates from `firstOriginId`, the payee read before each or not. */
async function createBlock(
  store: MovementStoreInstance,
  template: Omit<TransferIntent, 'originId'>,
  firstOriginId: number,
  count: number,
  withRead: boolean,
): Promise<number> {
  const started = performance.now();
  for (let originId = firstOriginId; originId < firstOriginId + count; originId++) {
    if (withRead && (await store.payeeGate(template.to.address)).blocked) throw new Error('the payee is blocked');
    const { intent, fingerprint } = intentWithOriginId(template, originId);
    await writeCreatePath(store, OWNER, intent, fingerprint);
  }
  return (performance.now() - started) / count;
}

/** Milliseconds per payee read alone, over `count` reads. */
async function readBlock(store: MovementStoreInstance, address: string, count: number): Promise<number> {
  const started = performance.now();
  for (let read = 0; read < count; read++) await store.payeeGate(address);
  return (performance.now() - started) / count;
}

async function measure(engine: PayeeSeedEngine, ds: DataSource, plan: Plan, log: (line: string) => void) {
  const to = completeCbuCvu('0000003', '1000000000042') as string;
  const store = new MovementStore(ds, systemClock);
  await store.addPayee({ address: to, personId: PAYEE_CUIT, label: 'Proveedor del bench' });
  const template = templateTo(to);
  let next = 1;
  await createBlock(store, template, next, WARMUP_CREATES, true);
  next += WARMUP_CREATES;
  const withRead: number[] = [];
  const without: number[] = [];
  const differences: number[] = [];
  const reads: number[] = [];
  for (let round = 0; round < plan.rounds; round++) {
    const order = round % 2 === 0 ? [true, false] : [false, true];
    const perCreate = new Map<boolean, number>();
    for (const read of order) {
      perCreate.set(read, await createBlock(store, template, next, plan.creates, read));
      next += plan.creates;
    }
    const a = perCreate.get(true) as number;
    const b = perCreate.get(false) as number;
    withRead.push(a);
    without.push(b);
    differences.push(a - b);
    reads.push(await readBlock(store, to, plan.creates));
    log(
      `${engine} round ${round + 1}: with ${a.toFixed(3)} without ${b.toFixed(3)} ms/create, read alone ${reads[round].toFixed(3)} ms`,
    );
  }
  const median = (values: number[]) => percentile(values, 0.5);
  const spread = (values: number[]) => `${Math.min(...values).toFixed(3)}…${Math.max(...values).toFixed(3)}`;
  return `| ${engine} | ${median(withRead).toFixed(3)} | ${median(without).toFixed(3)} | ${median(differences).toFixed(3)} (${spread(differences)}) | ${((100 * median(differences)) / median(without)).toFixed(1)} % | ${median(reads).toFixed(3)} (${spread(reads)}) |`;
}

async function main(args: string[]): Promise<void> {
  const plan = planFromArgs(args);
  const started = performance.now();
  const log = (line: string) =>
    process.stderr.write(`[payee-gate ${((performance.now() - started) / 1000).toFixed(0).padStart(4)} s] ${line}\n`);
  const dir = mkdtempSync(join(tmpdir(), 'giro-bench-payee-gate-'));
  const rows: string[] = [];
  try {
    for (const engine of plan.engines) {
      if (engine === 'postgres' && !(await postgresReachable(plan.postgresUrl))) {
        log('postgres: no server at BENCH_POSTGRES_URL, skipped');
        continue;
      }
      const { ds } = await opened(engine, plan, dir);
      try {
        rows.push(await measure(engine, ds, plan, log));
      } finally {
        await ds.destroy();
        if (engine === 'postgres') await dropBenchDatabase(plan.postgresUrl, BENCH_DATABASE);
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  console.log(
    `The create path's payee read, ${plan.payees} payees, ${plan.rounds} rounds of ${plan.creates} sequential creates with and without it (medians over the rounds, min…max):\n`,
  );
  console.log(
    '| engine | with the read, ms/create | without, ms/create | difference, ms | share | the read alone, ms |\n| --- | ---: | ---: | ---: | ---: | ---: |',
  );
  console.log(rows.join('\n'));
}

main(process.argv.slice(2)).catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
