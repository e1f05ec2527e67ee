import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { type SandboxBank, startSandboxBank } from '@giro/sandbox-bank';
import { TRANSFER_MIGRATIONS } from '@giro/transfer-module';
import Database from 'better-sqlite3';
import reconcilerPackage from '../apps/reconciler/package.json';
import { testCertificates, transferRequest } from './support/reconciler-harness';
import {
  bankEnvironment,
  killIfRunning,
  type ReconcilerProcess,
  runReconcilerCommand,
  startReconcilerProcess,
} from './support/reconciler-process';
import { waitUntil } from './support/wait-until';

// The reconciler as real processes (the swc build, as `pnpm start` and `pnpm sweep` run it) against a
// sandbox bank in this process, on an SQLite file. Intervals are scaled down; the sandbox audits the same.

const POLLING = { minIntervalMs: 500, delayedMinIntervalMs: 2_000 };
const POLLING_ENV = { POLL_MIN_INTERVAL_MS: '500', DELAYED_MIN_INTERVAL_MS: '2000' };

describe('reconciler processes on SQLite', () => {
  let dir: string;
  let bank: SandboxBank;
  let env: Record<string, string>;
  let processes: ReconcilerProcess[] = [];

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'giro-reconciler-process-'));
    const certs = await testCertificates();
    bank = await startSandboxBank({
      tls: { cert: certs.server.cert, key: certs.server.key, ca: certs.ca.cert },
      config: { polling: POLLING, timings: { createdMs: 500, inProgressMs: 1_000, delayedMs: 3_000 } },
    });
    env = {
      ...bankEnvironment(dir, certs, bank.url),
      ...POLLING_ENV,
      DATABASE_URL: `sqlite:${join(dir, 'giro.sqlite')}`,
    };
  });
  afterEach(async () => {
    await killIfRunning(processes);
    processes = [];
    await bank.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const start = async (extra: Record<string, string> = {}) => {
    const child = await startReconcilerProcess(dir, { ...env, ...extra });
    processes.push(child);
    return child;
  };

  const leasedCount = () => {
    const db = new Database(join(dir, 'giro.sqlite'), { readonly: true, fileMustExist: true });
    try {
      return (
        db.prepare('select count(*) as n from giro_movements where lease_owner is not null').get() as { n: number }
      ).n;
    } finally {
      db.close();
    }
  };

  it('on SIGTERM stops claiming, lets the bank calls in flight finish, releases every lease and exits 0', async () => {
    // Sweeps only on demand after the first one at start, so the test decides when the movements are claimed.
    const reconciler = await start({ SWEEP_INTERVAL_MS: '3600000' });
    const originIds: number[] = [];
    for (let n = 0; n < 20; n++) {
      const created = await reconciler.admin(
        'POST',
        '/admin/transfers',
        transferRequest({ description: `sigterm ${n}` }),
      );
      expect(created.status).toBe(201);
      originIds.push(created.json.originId);
    }
    // Every movement due (interval + at most 10 % of it in jitter), then a slow bank: the sweep claims all 20 and
    // works on 8 at a time.
    await sleep(POLLING.minIntervalMs + 1_100);
    bank.configure({ faults: { latencyMs: 2_500 } });
    const sweep = reconciler.admin('POST', '/admin/reconcile').catch(() => undefined);
    await waitUntil(
      () => leasedCount() === 20,
      20_000,
      () => ({ leased: leasedCount() }),
    );
    // The stop comes once the first lookups are at the bank, answered slowly: on a loaded machine it may reach the
    // process seconds later, and still the second wave (two answers later) is the last that can start.
    await waitUntil(
      () => bank.counters().faults.latency > 0,
      20_000,
      () => 'no lookup reached the bank',
    );

    const exit = await reconciler.stop();
    await sweep;
    expect(exit).toEqual({ code: 0, signal: null });
    expect(reconciler.running.output()).toContain('reconciler stopped');
    expect(leasedCount()).toBe(0);
    const lookups = originIds.reduce((sum, id) => sum + (bank.ledger.entry(id)?.lookups.length ?? 0), 0);
    expect(lookups).toBeGreaterThan(0);
    expect(lookups).toBeLessThan(20);

    // Nothing was lost: a new process takes the released movements to their final state.
    bank.configure({ faults: { latencyMs: 0 } });
    const next = await start({ SWEEP_INTERVAL_MS: '100' });
    await waitUntil(
      async () => (await next.admin('GET', '/admin/transfers?status=COMPLETED&limit=500')).json.items.length === 20,
      20_000,
      () => 'not every movement completed',
    );
    expect(bank.counters()).toMatchObject({ pollsTooEarly: 0, processedTwice: 0 });
    expect((await next.stop()).code).toBe(0);
  }, 60_000);

  it('`sweep --once` runs one sweep over the due movements, prints its counts and exits 0', async () => {
    const reconciler = await start({ SWEEP_INTERVAL_MS: '3600000' });
    for (let n = 0; n < 3; n++) {
      expect((await reconciler.admin('POST', '/admin/transfers', transferRequest())).status).toBe(201);
    }
    expect((await reconciler.stop()).code).toBe(0);
    await sleep(POLLING.minIntervalMs + 1_100);

    // A cron job needs no ADMIN_TOKEN: it serves no admin API.
    const { ADMIN_TOKEN: _notNeeded, ...cronEnv } = env;
    const usage = await runReconcilerCommand(dir, cronEnv, ['sweep']);
    expect(usage.code).toBe(2);
    expect(usage.output).toContain('usage: giro-reconciler');

    const once = await runReconcilerCommand(dir, cronEnv, ['sweep', '--once']);
    expect(once.code).toBe(0);
    const report = once.output
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .find((line) => line.event === 'sweep-finished');
    expect(report).toMatchObject({ claimed: 3, queried: 3, errors: 0 });
    expect(leasedCount()).toBe(0);
    expect(bank.counters()).toMatchObject({ pollsTooEarly: 0, processedTwice: 0 });
    expect(once.output).not.toMatch(/sandbox-token|sandbox-hmac-secret/);
  }, 90_000); // four node processes started one after the other: over 30 s on a loaded machine

  it('`migrate` applies the migrations of DATABASE_URL and exits; `--help` and `--version` answer', async () => {
    const database = { DATABASE_URL: `sqlite:${join(dir, 'migrated.sqlite')}` };
    const ranBy = (output: string) =>
      output
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as { event: string; ran?: string[] })
        .find((line) => line.event === 'migrations-finished')?.ran;

    const first = await runReconcilerCommand(dir, database, ['migrate']);
    expect(first.code).toBe(0);
    expect(ranBy(first.output)).toEqual(TRANSFER_MIGRATIONS.map((migration) => migration.name));
    const again = await runReconcilerCommand(dir, database, ['migrate']);
    expect(again.code).toBe(0);
    expect(ranBy(again.output)).toEqual([]);

    const help = await runReconcilerCommand(dir, {}, ['--help']);
    expect(help.code).toBe(0);
    expect(help.output).toContain('giro-reconciler sweep --once');
    const version = await runReconcilerCommand(dir, {}, ['--version']);
    expect(version.output.trim()).toBe(reconcilerPackage.version);
  }, 90_000);
});

describe('a reconciler process that does not start', () => {
  it('fails the start with its exit status and what it printed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'giro-reconciler-no-start-'));
    try {
      const failure = await startReconcilerProcess(dir, { DATABASE_URL: 'mysql://db.internal/giro' }).then(
        () => undefined,
        (error: Error) => error,
      );
      expect(failure?.message).toMatch(
        /^the reconciler did not start \(the process exited before reconciler-ready; exit code 1/,
      );
      expect(failure?.message).toContain('DATABASE_URL must be sqlite:');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
