import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManualClock } from '@giro/transfer-module/testing';
import { distScript, type RunningProcess, startNode, waitForEvent } from './testing/child-process';
import { SignedHttpsClient } from './testing/signed-https-client';
import { TRANSFER_PATH, transferRequest } from './testing/test-sandbox';

describe('giro-sandbox-bank (dist/main.js as a child process)', () => {
  let cwd: string;
  let running: RunningProcess | undefined;
  beforeEach(() => {
    cwd = mkdtempSync(join(tmpdir(), 'giro-sandbox-'));
  });
  afterEach(async () => {
    if (running && running.child.exitCode === null && running.child.signalCode === null) {
      running.child.kill('SIGKILL');
      await running.exit;
    }
    running = undefined;
    rmSync(cwd, { recursive: true, force: true });
  });

  it('makes certificates, serves the bank with the env credentials, prints no secret, and stops on SIGTERM', async () => {
    running = startNode(distScript('main.js'), {
      cwd,
      env: { SANDBOX_PORT: '0', SANDBOX_TOKEN: 'child-token-value', SANDBOX_HMAC_SECRET: 'child-hmac-value' },
    });
    const ready = await waitForEvent(running, 'sandbox-bank-ready');
    expect(ready.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    expect(statSync(join(cwd, 'certs', 'client-key.pem')).mode & 0o777).toBe(0o600);

    const pem = (name: string) => readFileSync(join(cwd, 'certs', name), 'utf8');
    const client = new SignedHttpsClient(
      String(ready.url),
      { ca: pem('ca.pem'), cert: pem('client.pem'), key: pem('client-key.pem') },
      { token: 'child-token-value', hmacSecret: 'child-hmac-value' },
      new ManualClock(Date.now()),
    );
    const created = await client.post(TRANSFER_PATH, transferRequest(801));
    expect(created.status).toBe(200);
    expect(created.json.status).toBe('CREATED');
    expect((await client.post(TRANSFER_PATH, transferRequest(802), { token: 'sandbox-token' })).status).toBe(401);

    running.child.kill('SIGTERM');
    expect(await running.exit).toEqual({ code: 0, signal: null });
    expect(running.output()).toContain('SANDBOX_TOKEN (set)');
    expect(running.output()).not.toMatch(/child-token-value|child-hmac-value|sandbox-secret/);
  });

  it('requires the HMAC scheme of SANDBOX_HMAC_* and says which at start', async () => {
    running = startNode(distScript('main.js'), {
      cwd,
      env: {
        SANDBOX_PORT: '0',
        SANDBOX_HMAC_PRESET: 'single-header',
        SANDBOX_HMAC_SIGNATURE_HEADER: 'Signature',
        SANDBOX_HMAC_KEY_ID: 'bank-key',
      },
    });
    const ready = await waitForEvent(running, 'sandbox-bank-ready');
    expect(running.output()).toContain(
      'HMAC scheme: single-header (Signature: keyId=…,ts=…,sig=…), key id bank-key required',
    );
    const pem = (name: string) => readFileSync(join(cwd, 'certs', name), 'utf8');
    const client = new SignedHttpsClient(
      String(ready.url),
      { ca: pem('ca.pem'), cert: pem('client.pem'), key: pem('client-key.pem') },
      { token: 'sandbox-token', hmacSecret: 'sandbox-hmac-secret' },
      new ManualClock(Date.now()),
    );
    const refused = await client.post(TRANSFER_PATH, transferRequest(803)); // signed with the default scheme
    expect(refused).toMatchObject({ status: 401, json: { code: 'MISSING_SIGNATURE' } });
  });

  it('refuses a bad environment, naming the variable and the rule, and exits 1', async () => {
    running = startNode(distScript('main.js'), {
      cwd,
      env: { SANDBOX_PORT: 'eighty', SANDBOX_FAULTS: '{"hangRate": 2}', SANDBOX_CLIENT_SECRET: '' },
    });
    expect((await running.exit).code).toBe(1);
    expect(running.output()).toContain('SANDBOX_PORT must be an integer between 0 and 65535');
    expect(running.output()).toContain('SANDBOX_FAULTS: faults.hangRate must be a number between 0 and 1');
    expect(running.output()).toContain('SANDBOX_CLIENT_SECRET must not be empty');
  });

  it('answers --help and --version, and refuses an unknown command with its usage and exit status 2', async () => {
    const help = startNode(distScript('main.js'), { cwd, env: {}, args: ['--help'] });
    expect(await help.exit).toEqual({ code: 0, signal: null });
    expect(help.output()).toContain('giro-sandbox-bank certs');

    const version = startNode(distScript('main.js'), { cwd, env: {}, args: ['--version'] });
    expect(await version.exit).toEqual({ code: 0, signal: null });
    expect(version.output().trim()).toBe(
      JSON.parse(readFileSync(join(__dirname, '..', 'package.json'), 'utf8')).version,
    );

    const unknown = startNode(distScript('main.js'), { cwd, env: {}, args: ['serve-please'] });
    expect((await unknown.exit).code).toBe(2);
    expect(unknown.output()).toContain('usage: giro-sandbox-bank');
  });
});
