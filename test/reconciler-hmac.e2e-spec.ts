import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type SandboxBank, startSandboxBank } from '@giro/sandbox-bank';
import { testCertificates, transferRequest } from './support/reconciler-harness';
import {
  bankEnvironment,
  killIfRunning,
  type ReconcilerProcess,
  startReconcilerProcess,
} from './support/reconciler-process';
import { waitUntil } from './support/wait-until';

// The HMAC scheme as the reconciler's command is configured with it (BANK_HMAC_*; the swc build, a real child
// process) against the sandbox bank over mutual TLS, requiring the single-header preset and a key id: a transfer
// goes through and reaches its final state when both agree; when they do not, the bank refuses every request,
// the reconciler reports it as an authentication failure, and nothing becomes final by mistake.

const POLLING = { minIntervalMs: 300, delayedMinIntervalMs: 1_500 };
const KEY_ID = 'giro-e2e-key';

describe('the reconciler process signing with BANK_HMAC_PRESET=single-header', () => {
  let dir: string;
  let bank: SandboxBank;
  let env: Record<string, string>;
  let processes: ReconcilerProcess[] = [];

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'giro-reconciler-hmac-'));
    const certs = await testCertificates();
    bank = await startSandboxBank({
      tls: { cert: certs.server.cert, key: certs.server.key, ca: certs.ca.cert },
      config: {
        polling: POLLING,
        timings: { createdMs: 200, inProgressMs: 400 },
        hmac: { preset: 'single-header', signatureHeader: 'Signature', keyId: KEY_ID },
      },
    });
    env = {
      ...bankEnvironment(dir, certs, bank.url),
      POLL_MIN_INTERVAL_MS: String(POLLING.minIntervalMs),
      DELAYED_MIN_INTERVAL_MS: String(POLLING.delayedMinIntervalMs),
      SWEEP_INTERVAL_MS: '100',
      DATABASE_URL: `sqlite:${join(dir, 'giro.sqlite')}`,
    };
  });
  afterEach(async () => {
    await killIfRunning(processes);
    processes = [];
    await bank.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const start = async (extra: Record<string, string>) => {
    const child = await startReconcilerProcess(dir, { ...env, ...extra });
    processes.push(child);
    return child;
  };
  const unauthorized = () =>
    Object.values(bank.counters().requests).reduce((sum, outcomes) => sum + (outcomes.unauthorized ?? 0), 0);

  it('sends and follows a transfer to COMPLETED when the bank requires the same scheme and key id', async () => {
    const reconciler = await start({ BANK_HMAC_PRESET: 'single-header', BANK_HMAC_KEY_ID: KEY_ID });
    const created = await reconciler.admin('POST', '/admin/transfers', transferRequest({ originId: 7_001 }));
    expect(created.status).toBe(201);
    // biome-ignore lint/suspicious/noExplicitAny: the movement as the admin API answers it
    let final: any;
    await waitUntil(
      async () => {
        final = (await reconciler.admin('GET', '/admin/transfers/7001')).json;
        return final.status === 'COMPLETED';
      },
      20_000,
      () => final,
    );
    expect(final).toMatchObject({ status: 'COMPLETED', lastError: null, cancellation: null });
    expect(bank.ledger.entry(7_001)).toBeDefined();
    expect(unauthorized()).toBe(0);
    expect(bank.counters().pollsTooEarly).toBe(0);
    expect(await reconciler.stop()).toEqual({ code: 0, signal: null });
  });

  it.each([
    ['the default scheme', {}],
    ['another key id', { BANK_HMAC_PRESET: 'single-header', BANK_HMAC_KEY_ID: 'not-the-banks-key' }],
  ])('reports an authentication failure when it signs with %s, and nothing becomes final', async (_case, hmacEnv) => {
    const reconciler = await start(hmacEnv);
    const created = await reconciler.admin('POST', '/admin/transfers', transferRequest({ originId: 7_002 }));
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({ status: 'PENDING', attempts: 0 });
    expect(created.json.lastError).toMatch(/401/);

    // Sweeps keep trying (the send is certainly not processed) and keep being refused: never FAILED.
    await waitUntil(
      () => unauthorized() >= 3,
      20_000,
      () => ({ refused: unauthorized() }),
    );
    const movement = (await reconciler.admin('GET', '/admin/transfers/7002')).json;
    expect(movement).toMatchObject({ status: 'PENDING', attempts: 0, cancellation: null });
    expect(movement.lastError).toMatch(/401/);
    expect((await reconciler.admin('GET', '/admin/cancellations')).json).toEqual([]);
    expect(bank.ledger.entry(7_002)).toBeUndefined();
    const metrics = await (await fetch(`${reconciler.url}/metrics`)).text();
    expect(metrics).toMatch(/giro_bank_call_duration_seconds_count\{operation="[^"]+",outcome="401"\} [1-9]/);
    expect(await reconciler.stop()).toEqual({ code: 0, signal: null });
  });
});
