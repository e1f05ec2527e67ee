import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type SandboxBank, startSandboxBank } from '@giro/sandbox-bank';
import { createDevCertificates } from '@giro/sandbox-bank/certs/dev-certificates';
import { startNode } from '@giro/sandbox-bank/testing/child-process';
import { SAMPLE_SOURCE_ACCOUNTS, transferRequest } from '@test-support/reconciler-harness';
import {
  killIfRunning,
  type ReconcilerProcess,
  reconcilerScript,
  startReconcilerProcess,
} from '@test-support/reconciler-process';
import { findSecrets } from '@test-support/secret-scan';

// Secrets stay secret: reconciler processes given distinctive secrets and sent down every failure path — a
// wrong HMAC secret, a wrong OAuth2 client secret, a wrong key passphrase, trace logging through bank faults —
// never write one to their output or put one in an answer. (Each chaos run scans its whole output too.)

describe('secrets in the output and answers of reconciler processes', () => {
  let dir: string;
  let bank: SandboxBank;
  const processes: ReconcilerProcess[] = [];
  const distinct = (name: string) => `security-${name}-${randomBytes(10).toString('hex')}`;
  const secrets = {
    ADMIN_TOKEN: distinct('admin-token'),
    AUDIT_HMAC_KEY: distinct('audit-hmac-key'),
    BANK_CLIENT_SECRET: distinct('client-secret'),
    BANK_HMAC_SECRET: distinct('hmac-secret'),
    BANK_KEY_PASSPHRASE: distinct('key-passphrase'),
    ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    'wrong BANK_CLIENT_SECRET': distinct('wrong-client-secret'),
    'wrong BANK_HMAC_SECRET': distinct('wrong-hmac-secret'),
    'wrong BANK_KEY_PASSPHRASE': distinct('wrong-key-passphrase'),
    'the sandbox static token': distinct('static-token'),
  };
  const clientId = 'giro-security';
  const scanned = { bytes: 0, answers: 0, cases: [] as string[] };
  const found: string[] = [];
  let env: Record<string, string>;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'giro-security-'));
    const certs = await createDevCertificates({ clientKeyPassphrase: secrets.BANK_KEY_PASSPHRASE });
    writeFileSync(join(dir, 'ca.pem'), certs.ca.cert);
    writeFileSync(join(dir, 'client.pem'), certs.client.cert);
    writeFileSync(join(dir, 'client-key.pem'), certs.client.key, { mode: 0o600 });
    bank = await startSandboxBank({
      tls: { cert: certs.server.cert, key: certs.server.key, ca: certs.ca.cert },
      credentials: {
        token: secrets['the sandbox static token'],
        clientId,
        clientSecret: secrets.BANK_CLIENT_SECRET,
        hmacSecret: secrets.BANK_HMAC_SECRET,
      },
      config: {
        timings: { createdMs: 100, inProgressMs: 200, delayedMs: 500 },
        polling: { minIntervalMs: 200, delayedMinIntervalMs: 400 },
        faults: { resetAfterRate: 0.1, serverErrorRate: 0.1, malformedRate: 0.1 },
      },
    });
    env = {
      BANK_BASE_URL: bank.url,
      ENCRYPTION_KEY: secrets.ENCRYPTION_KEY,
      BANK_CA_FILE: join(dir, 'ca.pem'),
      BANK_CERT_FILE: join(dir, 'client.pem'),
      BANK_KEY_FILE: join(dir, 'client-key.pem'),
      BANK_KEY_PASSPHRASE: secrets.BANK_KEY_PASSPHRASE,
      BANK_TOKEN_URL: `${bank.url}/oauth/token`,
      BANK_CLIENT_ID: clientId,
      BANK_CLIENT_SECRET: secrets.BANK_CLIENT_SECRET,
      BANK_HMAC_SECRET: secrets.BANK_HMAC_SECRET,
      ADMIN_TOKEN: secrets.ADMIN_TOKEN,
      AUDIT_HMAC_KEY: secrets.AUDIT_HMAC_KEY,
      POLL_MIN_INTERVAL_MS: '200',
      DELAYED_MIN_INTERVAL_MS: '400',
      ALLOW_POLLING_BELOW_SPEC: 'true',
      SOURCE_ACCOUNTS: SAMPLE_SOURCE_ACCOUNTS,
      SWEEP_INTERVAL_MS: '100',
      LOG_LEVEL: 'trace',
    };
  });
  afterAll(async () => {
    await killIfRunning(processes);
    await bank?.close();
    rmSync(dir, { recursive: true, force: true });
    console.log(
      `secrets: ${scanned.cases.length} reconcilers (${scanned.cases.join('; ')}), ` +
        `${(scanned.bytes / 1024).toFixed(0)} KiB of output and ${scanned.answers} answers scanned for ` +
        `${Object.keys(secrets).length + 1} secrets: found ${found.length === 0 ? 0 : found.join(', ')}`,
    );
  });

  /** `evidence` shows that the failure path was taken, so its output is what gets scanned. */
  const scan = (name: string, output: string, answers: string[], evidence: RegExp) => {
    expect([output, ...answers].join('\n')).toMatch(evidence);
    scanned.cases.push(name);
    scanned.bytes += output.length;
    scanned.answers += answers.length;
    const leaked = findSecrets([output, ...answers].join('\n'), {
      ...secrets,
      'client credentials (HTTP Basic)': `${clientId}:${secrets.BANK_CLIENT_SECRET}`,
    });
    found.push(...leaked.map((secret) => `${secret} (${name})`));
    expect({ name, leaked }).toEqual({ name, leaked: [] });
  };

  /** Starts a reconciler with `overrides`, drives every admin route and the sweep, stops it, and scans. */
  const exercise = async (
    name: string,
    overrides: Record<string, string>,
    evidence: RegExp,
    settle: (p: ReconcilerProcess) => Promise<boolean>,
  ) => {
    const reconciler = await startReconcilerProcess(dir, {
      ...env,
      ...overrides,
      DATABASE_URL: `sqlite:${join(dir, `${name.replace(/\W+/g, '-')}.sqlite`)}`,
    });
    processes.push(reconciler);
    const answers: string[] = [];
    const call = async (method: string, path: string, body?: unknown) => {
      const answer = await reconciler.admin(method, path, body);
      answers.push(JSON.stringify(answer.json ?? null));
      return answer;
    };
    const originIds: number[] = [];
    for (const description of ['security', 'security [fail]', 'security [lost]', 'security [reject]']) {
      const created = await call('POST', '/admin/transfers', transferRequest({ description }));
      originIds.push(created.json.originId);
    }
    // Until settled (the evidence's path taken), bounded generously: a loaded machine may take a while.
    const deadline = Date.now() + 40_000;
    for (let sweep = 0; sweep < 3 || (!(await settle(reconciler)) && Date.now() < deadline); sweep++) {
      await call('POST', '/admin/reconcile');
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    for (const originId of originIds) {
      await call('GET', `/admin/transfers/${originId}`);
      await call('POST', `/admin/transfers/${originId}/refresh`);
    }
    await call('GET', '/admin/transfers?limit=500');
    await call('GET', '/admin/cancellations');
    for (const path of ['/health', '/metrics', '/docs-json']) {
      answers.push(await fetch(`${reconciler.url}${path}`).then((response) => response.text()));
    }
    expect(await reconciler.stop()).toEqual({ code: 0, signal: null });
    scan(name, reconciler.running.output(), answers, evidence);
  };
  const lastErrors = async (reconciler: ReconcilerProcess) => {
    const page = await reconciler.admin('GET', '/admin/transfers?limit=500');
    return (page.json.items as { status: string; lastError: string | null }[]).filter((m) => m.status === 'PENDING');
  };

  it(
    'a wrong HMAC secret: every call refused by the bank, the secret in no log line or answer',
    () =>
      exercise(
        'wrong HMAC secret',
        { BANK_HMAC_SECRET: secrets['wrong BANK_HMAC_SECRET'] },
        /INVALID_SIGNATURE/,
        async (reconciler) => (await lastErrors(reconciler)).every((m) => /401/.test(m.lastError ?? '')),
      ),
    90_000,
  );

  it(
    'a wrong OAuth2 client secret: no token, the secret in no log line or answer',
    () =>
      exercise(
        'wrong client secret',
        { BANK_CLIENT_SECRET: secrets['wrong BANK_CLIENT_SECRET'] },
        /invalid_client/,
        async (reconciler) => (await lastErrors(reconciler)).every((m) => m.lastError !== null),
      ),
    90_000,
  );

  it(
    'trace logging through bank faults to the end: the secrets in no log line or answer',
    () =>
      exercise('trace logging through faults', {}, /"status":"COMPLETED"/, async (reconciler) => {
        const page = await reconciler.admin('GET', '/admin/transfers?limit=500');
        return (page.json.items as { status: string }[]).every(
          (m) => m.status === 'COMPLETED' || m.status === 'FAILED',
        );
      }),
    90_000,
  );

  it('a wrong key passphrase: the start fails naming BANK_KEY_PASSPHRASE, never showing either passphrase', async () => {
    const running = startNode(reconcilerScript('main.js'), {
      cwd: dir,
      env: {
        ...env,
        PORT: '0',
        BANK_KEY_PASSPHRASE: secrets['wrong BANK_KEY_PASSPHRASE'],
        DATABASE_URL: `sqlite:${join(dir, 'passphrase.sqlite')}`,
      },
    });
    expect(await running.exit).toEqual({ code: 1, signal: null });
    expect(running.output()).toMatch(/BANK_KEY_PASSPHRASE/);
    scan('wrong key passphrase', running.output(), [], /BANK_KEY_PASSPHRASE/);
  });
});
