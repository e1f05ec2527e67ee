import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { startNode } from '@giro/sandbox-bank/testing/child-process';
import { createTestDatabase, describeWithPostgres } from './support/postgres';
import {
  killIfRunning,
  type ReconcilerProcess,
  reconcilerScript,
  startReconcilerProcess,
} from './support/reconciler-process';

// `pnpm start` on a fresh checkout: no BANK_BASE_URL, no ADMIN_TOKEN, no certificates, no database. The
// reconciler must make the certificates, start the sandbox bank, run the demo batch to its end, print the
// summary, and keep serving the admin API with the token it printed.

/** GET on the sandbox's control surface, with the development client certificate the reconciler made. */
function sandboxGet(baseUrl: string, certsDir: string, path: string): Promise<unknown> {
  const pem = (name: string) => readFileSync(join(certsDir, name), 'utf8');
  return new Promise((resolve, reject) => {
    const request = httpsRequest(
      `${baseUrl}${path}`,
      { ca: pem('ca.pem'), cert: pem('client.pem'), key: pem('client-key.pem') },
      (response) => {
        let body = '';
        response.on('data', (chunk: Buffer) => {
          body += chunk.toString('utf8');
        });
        response.on('end', () => resolve(JSON.parse(body)));
      },
    );
    request.on('error', reject);
    request.end();
  });
}

describe('pnpm start in sandbox mode (dist/main.js as a child process)', () => {
  let cwd: string;
  let reconciler: ReconcilerProcess | undefined;
  beforeEach(() => {
    cwd = mkdtempSync(join(tmpdir(), 'giro-start-'));
  });
  afterEach(async () => {
    await killIfRunning([reconciler]);
    reconciler = undefined;
    rmSync(cwd, { recursive: true, force: true });
  });

  it('starts the sandbox bank, runs the demo batch to its summary and keeps serving the admin API', async () => {
    reconciler = await startReconcilerProcess(cwd, { SANDBOX_PORT: '0' });
    const output = () => (reconciler as ReconcilerProcess).running.output();
    expect(output()).toContain('SANDBOX MODE');
    expect(output()).toContain('polling scaled down for the demo');
    expect(existsSync(join(cwd, 'certs', 'client-key.pem'))).toBe(true);

    const deadline = Date.now() + 50_000;
    while (!output().includes('the reconciler keeps running')) {
      if (Date.now() > deadline) throw new Error(`no demo summary in time:\n${output()}`);
      await sleep(200);
    }
    expect(output()).toContain('demo batch done: COMPLETED 8, FAILED 2');
    expect(output()).toContain(
      'cancellations to register on your side (GET /admin/cancellations?acknowledged=false): 2',
    );
    expect(output()).toMatch(/\/10 final after/);
    // Not a terminal: plain progress lines, no cursor movements.
    expect(output()).not.toContain('\x1b[');
    // The demo's webhook receiver verified every change of the batch with standardwebhooks, none refused.
    expect(output()).toMatch(/webhooks +http:\/\/127\.0\.0\.1:\d+\/webhooks — the demo's receiver \(endpoint ep_/);
    expect(output()).toMatch(
      /webhooks +\d+ verified — created 10 · status_changed \d+ · completed 8 · failed 2( · report\.daily_closed 1)?\n/,
    );

    const token = /admin token\s+(\S+)\s+\(generated/.exec(output())?.[1] as string;
    expect(token).toMatch(/^[A-Za-z0-9_-]{32}$/);
    const cancellations = await fetch(`${reconciler.url}/admin/cancellations?acknowledged=false`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(cancellations.status).toBe(200);
    expect(await cancellations.json()).toHaveLength(2);
    expect((await fetch(`${reconciler.url}/admin/transfers`)).status).toBe(401);
    expect((await fetch(`${reconciler.url}/docs`)).status).toBe(200);

    const sandboxUrl = /sandbox bank\s+(https:\/\/\S+)/.exec(output())?.[1] as string;
    const counters = await sandboxGet(sandboxUrl, join(cwd, 'certs'), '/__sandbox/counters');
    expect(counters).toMatchObject({ processed: 9, pollsTooEarly: 0, processedTwice: 0 });

    const log = readFileSync(join(cwd, 'data', 'reconciler.log'), 'utf8');
    expect(log).toContain('"originId"');
    expect(log).not.toContain(token);
    expect(log).not.toMatch(/sandbox-token|sandbox-hmac-secret/);
    expect(log).not.toContain('whsec_');

    expect(await reconciler.stop()).toEqual({ code: 0, signal: null });
  }, 90_000);

  async function remembersAfterRestart(databaseUrl: string | undefined, ledgerFile: string) {
    const env: Record<string, string> = {
      SANDBOX_PORT: '0',
      ADMIN_TOKEN: 'a-demo-admin-token-kept-across-starts',
      ...(databaseUrl !== undefined && { DATABASE_URL: databaseUrl }),
    };
    const demoDone = async (running: ReconcilerProcess) => {
      const deadline = Date.now() + 50_000;
      while (!running.running.output().includes('the reconciler keeps running')) {
        if (Date.now() > deadline) throw new Error(`no demo summary in time:\n${running.running.output()}`);
        await sleep(200);
      }
    };
    reconciler = await startReconcilerProcess(cwd, env);
    await demoDone(reconciler);
    const first = (await reconciler.admin('GET', '/admin/transfers?status=COMPLETED')).json.items[0];
    expect(first).toMatchObject({ originId: expect.any(Number), status: 'COMPLETED' });
    expect(existsSync(join(cwd, 'data', ledgerFile))).toBe(true);
    expect(await reconciler.stop()).toEqual({ code: 0, signal: null });

    reconciler = await startReconcilerProcess(cwd, env);
    await demoDone(reconciler);
    const output = reconciler.running.output();
    expect(output).toContain('demo batch done: COMPLETED 8, FAILED 2');
    const sandboxUrl = /sandbox bank\s+(https:\/\/\S+)/.exec(output)?.[1] as string;
    const certs = join(cwd, 'certs');
    expect(await sandboxGet(sandboxUrl, certs, `/__sandbox/ledger?originId=${first.originId}`)).toMatchObject({
      entries: [{ originId: first.originId, status: 'COMPLETED' }],
    });
    expect(await sandboxGet(sandboxUrl, certs, '/__sandbox/counters')).toMatchObject({
      processed: 9,
      processedTwice: 0,
    });
    const lookup = await reconciler.admin('POST', '/admin/bank/lookup', { originId: first.originId });
    expect(lookup).toMatchObject({ status: 200, json: { stored: true, status: 'COMPLETED' } });
    expect(await reconciler.stop()).toEqual({ code: 0, signal: null });
  }

  it('remembers at the sandbox bank, after a restart, the movements of the first run (SQLite)', async () => {
    await remembersAfterRestart(undefined, 'giro.sqlite.sandbox-bank.jsonl');
  }, 150_000);

  describeWithPostgres('on Postgres', () => {
    it('remembers at the sandbox bank, after a restart, the movements of the first run (Postgres)', async () => {
      const database = await createTestDatabase();
      try {
        await remembersAfterRestart(database.url, 'sandbox-bank-ledger.jsonl');
      } finally {
        await killIfRunning([reconciler]);
        await database.drop();
      }
    }, 150_000);
  });

  it('refuses a bad environment, naming every variable and its rule, and exits 1', async () => {
    const running = startNode(reconcilerScript('main.js'), {
      cwd,
      env: { BANK_BASE_URL: 'http://bank.example.com', PORT: 'eighty', ADMIN_TOKEN: 'short-token' },
    });
    try {
      expect((await running.exit).code).toBe(1);
      expect(running.output()).toContain('BANK_BASE_URL must be an https URL');
      expect(running.output()).toContain('PORT must be an integer between 0 and 65535');
      expect(running.output()).toContain('ADMIN_TOKEN must be at least 16 characters long');
      expect(running.output()).not.toContain('short-token');
      expect(existsSync(join(cwd, 'certs'))).toBe(false);
    } finally {
      await killIfRunning([running]);
    }
  });
});
