import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { type SandboxBank, startSandboxBank } from '@giro/sandbox-bank';
import { describeOnEachEngine } from './support/engines';
import { testCertificates, transferRequest } from './support/reconciler-harness';
import {
  bankEnvironment,
  killIfRunning,
  RECONCILER_HOOK_MS,
  type ReconcilerProcess,
  startReconcilerProcess,
} from './support/reconciler-process';

// A reconciler process SIGKILLed while it releases scheduled transfers (some released and sent, their sends in
// flight at a slow bank, the others still SCHEDULED), then started again on the same database: every transfer
// reaches the bank once (none processed twice, none lost), none before its moment, and each was released once. On
// each engine: the claim that releases them is one statement on both, but its row locks are Postgres's.

const TRANSFERS = 40;

describeOnEachEngine('a reconciler killed mid-release and started again', (engine) => {
  let dir: string;
  let bank: SandboxBank;
  let env: Record<string, string>;
  const processes: ReconcilerProcess[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'giro-release-kill-'));
    const certs = await testCertificates();
    bank = await startSandboxBank({
      tls: { cert: certs.server.cert, key: certs.server.key, ca: certs.ca.cert },
      config: { polling: { minIntervalMs: 500, delayedMinIntervalMs: 2_000 } },
    });
    env = {
      ...bankEnvironment(dir, certs, bank.url),
      DATABASE_URL: await engine.createDatabaseUrl(),
      POLL_MIN_INTERVAL_MS: '500',
      DELAYED_MIN_INTERVAL_MS: '2000',
      SWEEP_INTERVAL_MS: '200',
      SWEEP_BATCH_SIZE: '5',
      // Short bank calls, so that the killed process's leases (twice the longest call) end within seconds.
      BANK_TIMEOUT_MS: '1000',
    };
  }, RECONCILER_HOOK_MS);
  afterAll(async () => {
    await killIfRunning(processes);
    await bank?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('sends every transfer once, none before its moment', async () => {
    // Two calls at a time: its sends go out slowly (below).
    const first = await startReconcilerProcess(dir, { ...env, BANK_MAX_IN_FLIGHT: '2' });
    processes.push(first);
    // Far enough ahead for a loaded machine to create them all before it (all at once: the writes group).
    const moment = Date.now() + 15_000;
    const executeAt = new Date(moment).toISOString();
    const originIds = Array.from({ length: TRANSFERS }, (_, n) => 9301 + n);
    const created = await Promise.all(
      originIds.map((originId) =>
        first.admin('POST', '/admin/transfers', {
          ...transferRequest({ originId, description: `payroll ${originId}` }),
          executeAt,
        }),
      ),
    );
    for (const answer of created) expect(answer).toMatchObject({ status: 201, json: { status: 'SCHEDULED' } });
    expect(Date.now()).toBeLessThan(moment); // created ahead of the moment, or the test proves nothing
    // A slow bank, two calls at a time: the sends of the first batches are in flight when the process dies, long
    // before the last one even when this test notices late on a loaded machine.
    bank.configure({ faults: { latencyMs: 600 } });
    const sendsDeadline = moment + 30_000;
    while (bank.ledger.size < 3 && Date.now() < sendsDeadline) await sleep(20);
    expect(bank.ledger.size).toBeGreaterThan(0);
    expect(bank.ledger.size).toBeLessThan(TRANSFERS);
    first.running.child.kill('SIGKILL');
    await first.running.exit;
    bank.configure({ faults: { latencyMs: 0 } });

    const second = await startReconcilerProcess(dir, env);
    processes.push(second);
    const statusOf = async (originId: number) => (await second.admin('GET', `/admin/transfers/${originId}`)).json;
    let pending = originIds;
    const finalDeadline = Date.now() + 60_000;
    while (pending.length > 0 && Date.now() < finalDeadline) {
      const views = await Promise.all(pending.map(statusOf));
      pending = views.filter((view) => view.status !== 'COMPLETED').map((view) => view.originId);
      if (pending.length > 0) await sleep(100);
    }
    expect(pending).toEqual([]);

    const entries = bank.ledger.page({ limit: 1000 }).entries;
    expect(entries.map((entry) => entry.originId).sort()).toEqual(originIds);
    for (const entry of entries) expect(Date.parse(entry.createdAt)).toBeGreaterThanOrEqual(moment);
    expect(bank.counters()).toMatchObject({ processedTwice: 0, pollsTooEarly: 0 });
    for (const originId of originIds) {
      const view = await statusOf(originId);
      expect(view.history.filter((row: { source: string }) => row.source === 'release')).toHaveLength(1);
    }
    expect(await second.stop()).toEqual({ code: 0, signal: null });
  }, 180_000);
});
