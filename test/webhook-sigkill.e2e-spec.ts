import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type SandboxBank, startSandboxBank } from '@giro/sandbox-bank';
import { describeOnEachEngine } from './support/engines';
import { testCertificates, transferRequest } from './support/reconciler-harness';
import {
  bankEnvironment,
  killIfRunning,
  type ReconcilerProcess,
  startReconcilerProcess,
} from './support/reconciler-process';
import { waitUntil } from './support/wait-until';
import { deliveryProblems, type ListedDelivery, startWebhookReceiver } from './support/webhook-receiver';

// The reconciler as a real process (`pnpm start`'s build), delivering the webhooks of WEBHOOK_URL to a real
// receiver that answers slowly, killed with SIGKILL while attempts are in flight, then started again on the same
// database: every event is delivered in the end, those in flight at the kill again with the same webhook-id (and
// body), in order per transfer, each signature verified with the standardwebhooks library.

const POLLING = { minIntervalMs: 500, delayedMinIntervalMs: 2_000 };
const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const TRANSFERS = 8;

describeOnEachEngine('webhook delivery across a SIGKILL of the reconciler', (engine) => {
  let dir: string;
  let bank: SandboxBank;
  let processes: ReconcilerProcess[] = [];

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'giro-webhook-sigkill-'));
    const certs = await testCertificates();
    bank = await startSandboxBank({
      tls: { cert: certs.server.cert, key: certs.server.key, ca: certs.ca.cert },
      config: { polling: POLLING, timings: { createdMs: 300, inProgressMs: 600, delayedMs: 2_000 } },
    });
  });
  afterEach(async () => {
    await killIfRunning(processes);
    processes = [];
    await bank.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('every event is delivered after a SIGKILL during delivery, those in flight again with the same id', async () => {
    // Slow answers hold attempts in flight until the kill; fast ones after it.
    const answer = { delayMs: 3_000 };
    const hooks = await startWebhookReceiver(() => ({ status: 204, delayMs: answer.delayMs }));
    const certs = await testCertificates();
    const env = {
      ...bankEnvironment(dir, certs, bank.url),
      DATABASE_URL: await engine.createDatabaseUrl(),
      POLL_MIN_INTERVAL_MS: String(POLLING.minIntervalMs),
      DELAYED_MIN_INTERVAL_MS: String(POLLING.delayedMinIntervalMs),
      SWEEP_INTERVAL_MS: '100',
      // A movement whose query the kill interrupts is queried again only after the dead replica's lease expires
      // (QuerySchedule.afterTakeover), and the lease lasts twice the longest bank call: 141 s with the default
      // timeouts, 13 s with these (the sandbox answers in milliseconds).
      BANK_TIMEOUT_MS: '2000',
      WEBHOOK_URL: hooks.url,
      WEBHOOK_SECRET: SECRET,
      WEBHOOK_ALLOW_LOOPBACK: 'true',
      // An attempt gives up after 4 s; the lease of one in flight at the kill expires 13 s after its claim.
      WEBHOOK_TIMEOUT_MS: '4000',
      WEBHOOK_RETRY_DELAYS: '200ms,500ms,1s,2s,2s,2s,2s,2s,2s,2s',
    };
    try {
      const first = await startReconcilerProcess(dir, env);
      processes.push(first);
      for (let n = 0; n < TRANSFERS; n++) {
        const created = await first.admin('POST', '/admin/transfers', transferRequest({ description: `hooks ${n}` }));
        expect(created.status).toBe(201);
      }
      // Attempts in flight: arrived, not answered yet (every answer here is a 204, after 3 s).
      const inFlight = () => hooks.requests.filter((request) => request.answeredTick === undefined);
      await waitUntil(
        () => inFlight().length >= 3,
        20_000,
        () => hooks.requests.length,
      );
      const heldAtKill = new Set(inFlight().map((request) => request.id));
      const arrivedBeforeKill = hooks.requests.length;
      first.running.child.kill('SIGKILL');
      expect(await first.running.exit).toMatchObject({ signal: 'SIGKILL' });
      answer.delayMs = 0;

      const second = await startReconcilerProcess(dir, env);
      processes.push(second);
      const deliveries = async (): Promise<ListedDelivery[]> => {
        const items: ListedDelivery[] = [];
        let before: string | null = null;
        do {
          const query: string = `limit=500${before ? `&before=${before}` : ''}`;
          const page = await second.admin('GET', `/admin/webhooks/ep_environment/deliveries?${query}`);
          expect(page.status).toBe(200);
          items.push(...page.json.items);
          before = page.json.nextCursor;
        } while (before);
        return items;
      };
      let notFinal: unknown[] = [];
      let undelivered: unknown[] = [];
      const final = async () => {
        const page = await second.admin('GET', '/admin/transfers?limit=500');
        expect(page.status).toBe(200);
        notFinal = page.json.items
          .filter((m: { status: string }) => m.status !== 'COMPLETED' && m.status !== 'FAILED')
          .map((m: { originId: number; status: string }) => `${m.originId} ${m.status}`);
        return notFinal.length === 0;
      };
      await waitUntil(
        async () => {
          if (!(await final())) return false;
          undelivered = (await deliveries()).filter((delivery) => delivery.state !== 'delivered');
          return undelivered.length === 0;
        },
        60_000,
        () => ({ requests: hooks.requests.length, notFinal, undelivered }),
      );
      const all = await deliveries();
      // Each transfer: created, then at least its way to COMPLETED (status changes and transfer.completed).
      expect(all.length).toBeGreaterThanOrEqual(TRANSFERS * 3);
      // Every transfer's; the day's close (report.daily_closed, about no transfer) may come too.
      const transfersDelivered = all.flatMap((delivery) => (delivery.originId === null ? [] : [delivery.originId]));
      expect(new Set(transfersDelivered).size).toBe(TRANSFERS);
      expect(deliveryProblems(hooks.requests, all, [SECRET])).toEqual([]);
      // The attempts the kill interrupted were made again, with the same ids, and answered this time.
      expect(heldAtKill.size).toBeGreaterThanOrEqual(3);
      const afterKill = hooks.requests.slice(arrivedBeforeKill);
      for (const id of heldAtKill) {
        const again = afterKill.filter((request) => request.id === id && request.answeredTick !== undefined);
        expect([id, again.length > 0]).toEqual([id, true]);
      }
      expect(await second.stop()).toEqual({ code: 0, signal: null });
    } finally {
      await hooks.close();
    }
  }, 120_000);
});
