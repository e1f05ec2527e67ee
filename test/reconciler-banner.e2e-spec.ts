import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type SandboxBank, startSandboxBank } from '@giro/sandbox-bank';
import { SAMPLE_SOURCE_ACCOUNTS, testCertificates } from './support/reconciler-harness';
import {
  bankEnvironment,
  killIfRunning,
  type ReconcilerProcess,
  startReconcilerProcess,
} from './support/reconciler-process';

// The start-up banner of the reconciler's command (the swc build, a real process) against a bank URL: it says what
// a transfer must be to be sent — the transfer rules, the source accounts, PSP mode — and never a secret.

describe('the reconciler process start-up banner', () => {
  let dir: string;
  let bank: SandboxBank;
  const processes: ReconcilerProcess[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'giro-banner-'));
    const certs = await testCertificates();
    bank = await startSandboxBank({ tls: { cert: certs.server.cert, key: certs.server.key, ca: certs.ca.cert } });
  });
  afterAll(async () => {
    await killIfRunning(processes);
    await bank?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('shows the transfer rules, the source accounts and PSP mode, and none of the secrets it was given', async () => {
    const env: Record<string, string> = {
      ...bankEnvironment(dir, await testCertificates(), bank.url),
      DATABASE_URL: `sqlite:${join(dir, 'giro.sqlite')}`,
      PSP_MODE: 'true',
      TRANSFER_CURRENCIES: '032,840',
      TRANSFER_CONCEPTS: 'VAR,HAB',
      TRANSFER_MAX_AMOUNT: '250000.00',
      TRANSFER_MAX_DESCRIPTION_LENGTH: '80',
      BANK_HMAC_KEY_ID: 'key-banner',
    };
    const started = await startReconcilerProcess(dir, env);
    processes.push(started);
    const output = started.running.output();
    const [address, holder] = SAMPLE_SOURCE_ACCOUNTS.split(':');
    expect(output).toContain(
      'transfer rules    currencies 032, 840 · concepts VAR, HAB · amount up to 250000.00 · description up to 80 characters',
    );
    expect(output).toContain(`source accounts   ${address} (holder ${holder})`);
    expect(output).toContain(
      "PSP mode          on: also from the clients' sub-accounts registered at /admin/sub-accounts",
    );
    for (const secret of [env.BANK_TOKEN, env.BANK_HMAC_SECRET, env.ADMIN_TOKEN]) expect(output).not.toContain(secret);
    expect(await started.stop()).toEqual({ code: 0, signal: null });
  });
});
