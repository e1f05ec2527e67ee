import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { type SandboxBank, startSandboxBank } from '@giro/sandbox-bank';
import { createTestDatabase, describeWithPostgres, type TestDatabase } from '@test-support/postgres';
import { testCertificates, transferRequest } from './support/reconciler-harness';
import {
  bankEnvironment,
  killIfRunning,
  RECONCILER_HOOK_MS,
  type ReconcilerProcess,
  startReconcilerProcess,
} from './support/reconciler-process';

// Two reconciler processes on one Postgres database, started together (migrations under the advisory lock),
// sharing the work of one batch. The sandbox bank audits every lookup against the polling rule: a movement
// queried by both processes within the interval would show up in `pollsTooEarly`.

const POLLING = { minIntervalMs: 500, delayedMinIntervalMs: 2_000 };

describeWithPostgres('two reconciler processes on one Postgres database', () => {
  let dir: string;
  let database: TestDatabase;
  let bank: SandboxBank;
  let replicas: ReconcilerProcess[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'giro-replicas-'));
    database = await createTestDatabase();
    const certs = await testCertificates();
    bank = await startSandboxBank({
      tls: { cert: certs.server.cert, key: certs.server.key, ca: certs.ca.cert },
      config: {
        polling: POLLING,
        timings: { createdMs: 500, inProgressMs: 1_500, delayedMs: 3_000 },
        faults: { latencyMs: 20 },
      },
    });
    const env = {
      ...bankEnvironment(dir, certs, bank.url),
      DATABASE_URL: database.url,
      POLL_MIN_INTERVAL_MS: String(POLLING.minIntervalMs),
      DELAYED_MIN_INTERVAL_MS: String(POLLING.delayedMinIntervalMs),
      SWEEP_INTERVAL_MS: '100',
    };
    replicas = await Promise.all([startReconcilerProcess(dir, env), startReconcilerProcess(dir, env)]);
  }, RECONCILER_HOOK_MS);
  afterAll(async () => {
    await killIfRunning(replicas);
    await bank?.close();
    await database?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('share the batch, and no movement is queried by both within the allowed interval', async () => {
    const scenarios = ['', '', '', '[fail]', '[delay]', '[lost]'];
    const expected: Record<number, string> = {};
    for (let n = 0; n < 48; n++) {
      const scenario = scenarios[n % scenarios.length] as string;
      const replica = replicas[n % 2] as ReconcilerProcess;
      const created = await replica.admin(
        'POST',
        '/admin/transfers',
        transferRequest({ description: `replicas ${n} ${scenario}` }),
      );
      expect(created.status).toBe(201);
      expected[created.json.originId] = scenario === '[fail]' ? 'FAILED' : 'COMPLETED';
    }

    const deadline = Date.now() + 45_000;
    let final: Record<number, string> = {};
    for (;;) {
      const page = await (replicas[0] as ReconcilerProcess).admin('GET', '/admin/transfers?limit=500');
      final = Object.fromEntries(
        page.json.items.map((m: { originId: number; status: string }) => [m.originId, m.status]),
      );
      if (Object.values(final).every((status) => status === 'COMPLETED' || status === 'FAILED')) break;
      if (Date.now() > deadline) throw new Error(`not final in time: ${JSON.stringify(final)}`);
      await sleep(250);
    }
    expect(final).toEqual(expected);

    const counters = bank.counters();
    expect(counters).toMatchObject({ pollsTooEarly: 0, processedTwice: 0, pollsAfterFinal: 0, processed: 48 });

    // Both did part of the work: each claimed movements in its sweeps.
    for (const replica of replicas) {
      const metrics = await fetch(`${replica.url}/metrics`).then((response) => response.text());
      const claimed = Number(/^giro_sweep_claimed_total (\d+)/m.exec(metrics)?.[1]);
      expect(claimed).toBeGreaterThan(0);
    }

    for (const replica of replicas) expect(await replica.stop()).toEqual({ code: 0, signal: null });
  }, 90_000);
});
