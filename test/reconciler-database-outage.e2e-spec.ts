import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { type SandboxBank, startSandboxBank } from '@giro/sandbox-bank';
import { startNode, waitForEvent } from '@giro/sandbox-bank/testing/child-process';
import { createTestDatabase, describeWithPostgres, type TestDatabase } from '@test-support/postgres';
import { CuttableProxy } from './support/cuttable-proxy';
import { ADMIN_TOKEN, testCertificates, transferRequest } from './support/reconciler-harness';
import {
  bankEnvironment,
  killIfRunning,
  RECONCILER_HOOK_MS,
  type ReconcilerProcess,
  reconcilerScript,
  runReconcilerCommand,
  startReconcilerProcess,
} from './support/reconciler-process';
import { waitUntil } from './support/wait-until';

// The database goes away under a running reconciler (the swc build: `pnpm build` first): its admin API answers
// 503 with Retry-After — never 500 — and changes nothing, the outage is logged once, not once per request, and once
// the database is back the same process serves again without a restart; the sweeps that fail meanwhile say so once. Postgres: its connections cut by a proxy
// of this test's own (other suites on the server are not touched). (SQLite's locked file and full disk are
// faulted under load by the chaos suite, test/chaos/chaos-sqlite.e2e-spec.ts.) A batch cut mid-way answers 503
// naming the first row not done, and sent again creates and sends each transfer once. A reconciler started while
// Postgres cannot be reached waits for it, says so once, and starts when it answers (or gives up, saying why).

const OUTAGE_LINE = /the database is unavailable, admin requests answer 503/g;
const SWEEP_OUTAGE_LINE = /the database is unavailable, sweeps fail until it is back/g;
const SWEEPS_AGAIN_LINE = /the database answers again: sweeps run/;

async function expectUnavailable(reconciler: ReconcilerProcess, method: string, path: string, body?: unknown) {
  const response = await fetch(`${reconciler.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  const json = (await response.json()) as { error?: string; code?: string };
  expect({
    status: response.status,
    retryAfter: response.headers.get('retry-after'),
    error: json.error,
    code: json.code,
  }).toEqual({
    status: 503,
    retryAfter: '5',
    error: 'Service Unavailable',
    code: 'DATABASE_UNAVAILABLE',
  });
}

async function statusOf(url: string): Promise<number> {
  const response = await fetch(url);
  await response.arrayBuffer();
  return response.status;
}

interface Outage {
  url: string;
  cut(): void;
  restore(): void;
  close(): Promise<void>;
}

function outageSuite(setup: () => Promise<Outage>) {
  let dir: string;
  let bank: SandboxBank;
  let database: Awaited<ReturnType<typeof setup>>;
  let reconciler: ReconcilerProcess | undefined;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'giro-database-outage-'));
    database = await setup();
    const certs = await testCertificates();
    bank = await startSandboxBank({ tls: { cert: certs.server.cert, key: certs.server.key, ca: certs.ca.cert } });
    reconciler = await startReconcilerProcess(dir, {
      ...bankEnvironment(dir, certs, bank.url),
      DATABASE_URL: database.url,
      // Sweeps every half second while the transfers are followed, so several fail during the outage.
      SWEEP_INTERVAL_MS: '500',
      // A lease of 2 × (3 × 2 s + 0.5 s), DELAYED's rule 2 s: an intent is stored counted as one send, then sent.
      // When the cut falls between its commit and the commit's answer, it is stored but never sent, and giro
      // cannot know: it waits for the lease to end and DELAYED's rule after it, asks the bank, and sends it
      // then — within the test's wait, where the defaults (10 min) would not be.
      BANK_TIMEOUT_MS: '2000',
      POLL_MIN_INTERVAL_MS: '500',
      DELAYED_MIN_INTERVAL_MS: '2000',
    });
  }, RECONCILER_HOOK_MS);
  afterAll(async () => {
    await killIfRunning([reconciler]);
    await bank?.close();
    await database?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers 503 with Retry-After while the database is out, logs it once, and serves again once it is back', async () => {
    const running = reconciler as ReconcilerProcess;
    expect((await running.admin('POST', '/admin/transfers', transferRequest({ originId: 9101 }))).status).toBe(201);

    database.cut();
    await expectUnavailable(running, 'POST', '/admin/transfers', transferRequest({ originId: 9102 }));
    await expectUnavailable(running, 'POST', '/admin/transfers', transferRequest({ originId: 9103 }));
    await expectUnavailable(running, 'GET', '/admin/transfers/9101');
    await waitUntil(async () => (await statusOf(`${running.url}/health/ready`)) === 503, 20_000);
    // Once a sweep has failed and said so (however slow the machine), a while more: said once, not per failure.
    await waitUntil(() => running.running.output().match(SWEEP_OUTAGE_LINE) !== null, 20_000);
    await sleep(2_000);
    expect(running.running.output().match(OUTAGE_LINE)).toHaveLength(1);
    expect(running.running.output().match(SWEEP_OUTAGE_LINE)).toHaveLength(1);
    expect(running.running.output()).not.toMatch(/sweep failed/);

    database.restore();
    await waitUntil(async () => (await running.admin('GET', '/admin/transfers/9101')).status === 200, 20_000);
    await waitUntil(
      async () => (await running.admin('POST', '/admin/transfers', transferRequest({ originId: 9102 }))).status === 201,
      20_000,
    );
    await waitUntil(async () => (await statusOf(`${running.url}/health/ready`)) === 200, 20_000);
    await waitUntil(() => SWEEPS_AGAIN_LINE.test(running.running.output()), 20_000);
    // Nothing was half-written during the outage: each transfer is there once.
    const page = await running.admin('GET', '/admin/transfers?limit=10');
    expect(page.json.items.map((item: { originId: number }) => item.originId)).toEqual([9101, 9102]);
    expect(running.running.output()).not.toMatch(/"statusCode":500|Internal server error/);
  }, 90_000);

  it('answers a batch cut mid-way 503 naming the first row not done; sent again, each transfer is created and sent once', async () => {
    const running = reconciler as ReconcilerProcess;
    const rows = 1_000;
    const batch = Array.from({ length: rows }, (_, index) =>
      transferRequest({ originId: 9_201 + index, amount: '1.00' }),
    );
    // A bank 250 ms away: the batch takes half a minute, so the cut falls in its middle even when this test sees
    // the 40th send late (a loaded machine).
    bank.configure({ faults: { latencyMs: 250 } });
    const processedBefore = bank.counters().processed;
    const answer = running.admin('POST', '/admin/transfers/batch', batch);
    await waitUntil(() => bank.counters().processed >= processedBefore + 40, 20_000);
    database.cut();
    const cut = await answer;
    expect(cut.status).toBe(503);
    expect(cut.json.code).toBe('BATCH_INTERRUPTED');
    // At most BATCH_CONCURRENCY (8) rows were in flight when the 40th reached the bank.
    expect(cut.json.row).toBeGreaterThan(40 - 8);
    expect(cut.json.row).toBeLessThan(rows);
    expect(cut.json.message).toContain(`the database became unavailable at row ${cut.json.row}`);

    database.restore();
    bank.configure({ faults: { latencyMs: 0 } });
    await waitUntil(async () => (await running.admin('GET', '/admin/transfers/9201')).status === 200, 20_000);
    // The same batch again: the rows done before the cut are replayed, the rest created; none sent twice. A row
    // stored but not sent before the cut is replayed as stored, and sent by the sweep when its lease ends.
    const again = await running.admin('POST', '/admin/transfers/batch', batch);
    expect(again.status).toBe(200);
    expect(again.json.summary.created + again.json.summary.replayed).toBe(rows);
    expect(again.json.summary.replayed).toBeGreaterThanOrEqual(cut.json.row - 1);
    // On a timeout, where each transfer the bank never saw stands, for whoever reads the failure.
    await waitUntil(
      () => bank.counters().processed >= processedBefore + rows,
      45_000,
      () =>
        Promise.all(
          batch
            .filter((request) => bank.ledger.entry(request.originId as number) === undefined)
            .map(async (request) => (await running.admin('GET', `/admin/transfers/${request.originId}`)).json),
        ),
    );
    expect(bank.counters().processedTwice).toBe(0);
  }, 180_000); // a thousand transfers twice through a reconciler process: minutes on a loaded machine

  it('stops at SIGTERM while the database is out, saying once that its leases end on their own', async () => {
    const running = reconciler as ReconcilerProcess;
    database.cut();
    const exit = await running.stop();
    expect(exit).toEqual({ code: 0, signal: null });
    const output = running.running.output();
    expect(output.match(/leases not released \(they end on their own\)/g)).toHaveLength(1);
    expect(output).toMatch(/reconciler stopped/);
    database.restore();
  }, 60_000);
}

describeWithPostgres('the reconciler when Postgres goes away', () => {
  outageSuite(async () => {
    const database: TestDatabase = await createTestDatabase('giro_outage');
    const server = new URL(database.url);
    const proxy = await CuttableProxy.start({ host: server.hostname, port: Number(server.port || 5432) });
    const throughProxy = new URL(database.url);
    throughProxy.host = `127.0.0.1:${proxy.port}`;
    return {
      url: throughProxy.toString(),
      cut: () => proxy.cutOff(),
      restore: () => proxy.restore(),
      close: async () => {
        await proxy.close();
        await database.drop();
      },
    };
  });
});

describeWithPostgres('the reconciler started before Postgres answers', () => {
  let dir: string;
  let bank: SandboxBank;
  let database: TestDatabase;
  let proxy: CuttableProxy;
  let environment: Record<string, string>;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'giro-database-start-'));
    database = await createTestDatabase('giro_start');
    const server = new URL(database.url);
    proxy = await CuttableProxy.start({ host: server.hostname, port: Number(server.port || 5432) });
    const throughProxy = new URL(database.url);
    throughProxy.host = `127.0.0.1:${proxy.port}`;
    const certs = await testCertificates();
    bank = await startSandboxBank({ tls: { cert: certs.server.cert, key: certs.server.key, ca: certs.ca.cert } });
    environment = { ...bankEnvironment(dir, certs, bank.url), DATABASE_URL: throughProxy.toString(), PORT: '0' };
  }, RECONCILER_HOOK_MS);
  afterAll(async () => {
    await bank?.close();
    await proxy?.close();
    await database?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('waits while the database refuses, says so once, and serves once it answers, without a restart', async () => {
    proxy.cutOff();
    const running = startNode(reconcilerScript('main.js'), {
      cwd: dir,
      env: { ...environment, DATABASE_START_TIMEOUT_MS: '60000' },
    });
    try {
      const waiting = /the database cannot be reached \(.+\): trying again for up to 60 s/g;
      await waitUntil(() => waiting.test(running.output()), 20_000);
      // Attempts 0.25, 0.5, 1 and 2 s apart are refused meanwhile; the process waits, and says it once.
      await sleep(3_000);
      expect(running.child.exitCode).toBeNull();
      expect(running.output().match(waiting)).toHaveLength(1);
      proxy.restore();
      const ready = await waitForEvent(running, 'reconciler-ready', 30_000);
      expect(running.output()).toMatch(/the database answers, after \d+(\.\d)? s/);
      expect(await statusOf(`${String(ready.url)}/health/ready`)).toBe(200);
      const created = await fetch(`${String(ready.url)}/admin/transfers`, {
        method: 'POST',
        headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify(transferRequest({ originId: 9501 })),
      });
      expect(created.status).toBe(201);
    } finally {
      await killIfRunning([running]);
    }
  }, 90_000);

  it('gives up after DATABASE_START_TIMEOUT_MS, saying why in one line, without a stack trace', async () => {
    proxy.cutOff();
    try {
      const result = await runReconcilerCommand(dir, { ...environment, DATABASE_START_TIMEOUT_MS: '1000' }, []);
      expect(result.code).toBe(1);
      expect(result.output).toMatch(/giro-reconciler cannot start: the database did not answer within \d\.\d s \(.+\)/);
      expect(result.output).not.toMatch(/^\s+at /m);
    } finally {
      proxy.restore();
    }
  }, 60_000);
});
