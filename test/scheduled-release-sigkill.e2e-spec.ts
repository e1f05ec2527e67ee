import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { type SandboxBank, startSandboxBank } from '@giro/sandbox-bank';
import { testCertificates, transferRequest } from './support/reconciler-harness';
import {
  bankEnvironment,
  killIfRunning,
  type ReconcilerProcess,
  startReconcilerProcess,
} from './support/reconciler-process';

// A reconciler process SIGKILLed while it releases scheduled transfers (some released and sent, their sends in
// flight at a slow bank, the others still SCHEDULED), then started again on the same database: every transfer
// reaches the bank once (none processed twice, none lost), none before its moment, and each was released once.

const TRANSFERS = 40;

describe('a reconciler killed mid-release and started again', () => {
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
      DATABASE_URL: `sqlite:${join(dir, 'giro.sqlite')}`,
      POLL_MIN_INTERVAL_MS: '500',
      DELAYED_MIN_INTERVAL_MS: '2000',
      SWEEP_INTERVAL_MS: '200',
      SWEEP_BATCH_SIZE: '5',
      // Short bank calls, so that the killed process's leases (twice the longest call) end within seconds.
      BANK_TIMEOUT_MS: '1000',
    };
  }, 60_000);
  afterAll(async () => {
    await killIfRunning(processes);
    await bank?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('sends every transfer once, none before its moment', async () => {
    const first = await startReconcilerProcess(dir, env);
    processes.push(first);
    const moment = Date.now() + 6_000;
    const executeAt = new Date(moment).toISOString();
    const originIds = Array.from({ length: TRANSFERS }, (_, n) => 9301 + n);
    for (const originId of originIds) {
      const created = await first.admin('POST', '/admin/transfers', {
        ...transferRequest({ originId, description: `payroll ${originId}` }),
        executeAt,
      });
      expect(created).toMatchObject({ status: 201, json: { status: 'SCHEDULED' } });
    }
    expect(Date.now()).toBeLessThan(moment); // created ahead of the moment, or the test proves nothing
    // A slow bank: the sends of the first batches are in flight when the process dies.
    bank.configure({ faults: { latencyMs: 600 } });
    for (let wait = 0; bank.ledger.size < 3 && wait < 1000; wait++) await sleep(20);
    expect(bank.ledger.size).toBeGreaterThan(0);
    expect(bank.ledger.size).toBeLessThan(TRANSFERS);
    first.running.child.kill('SIGKILL');
    await first.running.exit;
    bank.configure({ faults: { latencyMs: 0 } });

    const second = await startReconcilerProcess(dir, env);
    processes.push(second);
    const statusOf = async (originId: number) => (await second.admin('GET', `/admin/transfers/${originId}`)).json;
    let pending = originIds;
    for (let wait = 0; pending.length > 0 && wait < 600; wait++) {
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
  }, 120_000);
});
