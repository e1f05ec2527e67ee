import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type SandboxBank, startSandboxBank } from '@giro/sandbox-bank';
import { testCertificates } from './support/reconciler-harness';
import {
  bankEnvironment,
  killIfRunning,
  type ReconcilerProcess,
  runReconcilerCommand,
  startReconcilerProcess,
} from './support/reconciler-process';

// The polling floor as the reconciler's command applies it (the swc build, a real process): against a bank URL,
// intervals below the bank's minimums stop it at start (exit 1) naming the variable and the minimum, unless
// ALLOW_POLLING_BELOW_SPEC=true, which starts it with a warning.

describe('the reconciler process and the polling floor', () => {
  let dir: string;
  let bank: SandboxBank;
  let env: Record<string, string>;
  const processes: ReconcilerProcess[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'giro-polling-floor-'));
    const certs = await testCertificates();
    bank = await startSandboxBank({ tls: { cert: certs.server.cert, key: certs.server.key, ca: certs.ca.cert } });
    const { ALLOW_POLLING_BELOW_SPEC: _allowed, ...strict } = bankEnvironment(dir, certs, bank.url);
    env = { ...strict, DATABASE_URL: `sqlite:${join(dir, 'giro.sqlite')}`, POLL_MIN_INTERVAL_MS: '1000' };
  });
  afterAll(async () => {
    await killIfRunning(processes);
    await bank?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('refuses to start below the bank minimum, naming the variable and the minimum', async () => {
    const refused = await runReconcilerCommand(dir, env, []);
    expect(refused.code).toBe(1);
    expect(refused.output).toContain("POLL_MIN_INTERVAL_MS is 1000 ms, below the bank's minimum of 5000 ms");
    expect(refused.output).toContain('ALLOW_POLLING_BELOW_SPEC=true');
    expect(bank.counters().requests).toEqual({});
  });

  it('starts with ALLOW_POLLING_BELOW_SPEC=true, warning about it', async () => {
    const started = await startReconcilerProcess(dir, { ...env, ALLOW_POLLING_BELOW_SPEC: 'true' });
    processes.push(started);
    expect(started.running.output()).toContain(
      'WARNING: polling the bank below its minimums (POLL_MIN_INTERVAL_MS=1000',
    );
    expect(await started.stop()).toEqual({ code: 0, signal: null });
  });
});
