import { spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DevCertificates } from '@giro/sandbox-bank/certs/dev-certificates';
import { type RunningProcess, startNode, waitForEvent } from '@giro/sandbox-bank/testing/child-process';
import { ADMIN_TOKEN, AUDIT_HMAC_KEY, SAMPLE_SOURCE_ACCOUNTS } from './reconciler-harness';

// The reconciler as a child process: `giro-reconciler` from the build in apps/reconciler/dist (`pnpm build`),
// as `pnpm start` and `pnpm sweep` run it.

const DIST = join(__dirname, '..', '..', 'apps', 'reconciler', 'dist');

export function reconcilerScript(relativePath: 'main.js'): string {
  const script = join(DIST, relativePath);
  if (!existsSync(script)) throw new Error(`${script} is missing: run \`pnpm build\` before this test`);
  return script;
}

/** Writes the client certificate, its key and the CA to `dir`, and returns the BANK_* variables naming them. */
export function bankEnvironment(dir: string, certs: DevCertificates, bankUrl: string): Record<string, string> {
  const files = { ca: join(dir, 'ca.pem'), cert: join(dir, 'client.pem'), key: join(dir, 'client-key.pem') };
  writeFileSync(files.ca, certs.ca.cert);
  writeFileSync(files.cert, certs.client.cert);
  writeFileSync(files.key, certs.client.key, { mode: 0o600 });
  return {
    BANK_BASE_URL: bankUrl,
    BANK_CA_FILE: files.ca,
    BANK_CERT_FILE: files.cert,
    BANK_KEY_FILE: files.key,
    BANK_TOKEN: 'sandbox-token',
    BANK_HMAC_SECRET: 'sandbox-hmac-secret',
    // Webhook secrets are stored encrypted with it (required with a bank): a fixed key, tests only.
    ENCRYPTION_KEY: 'Z2lybyB0ZXN0IGVuY3J5cHRpb24ga2V5IDMyIGJ5dGU=',
    ADMIN_TOKEN,
    AUDIT_HMAC_KEY,
    // The sandbox's polling rule is scaled down: below the bank's minimums, accepted for a test bank.
    ALLOW_POLLING_BELOW_SPEC: 'true',
    SOURCE_ACCOUNTS: SAMPLE_SOURCE_ACCOUNTS,
    // Tests wait for a state by asking the admin API every 50 ms (waitUntil), over a minute on a slow machine: past
    // the default budget of 600 a minute. The rate limit has suites of its own.
    ADMIN_RATE_LIMIT_PER_MINUTE: '100000',
  };
}

export interface ReconcilerProcess {
  running: RunningProcess;
  url: string;
  /** An admin request with the test's ADMIN_TOKEN. */
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON answers
  admin(method: string, path: string, body?: unknown): Promise<{ status: number; json: any }>;
  /** SIGTERM, then the exit status. */
  stop(): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * How long a child reconciler may take to say it is ready. It starts in a second or two alone; on a machine busy
 * with other suites and other work it has taken over 30 s. The wait ends on its ready line: this bound only limits
 * a hang, so it is generous.
 */
export const RECONCILER_START_MS = 120_000;

/** A hook's bound when it starts a reconciler: its start's, and a minute for the rest of its work. */
export const RECONCILER_HOOK_MS = RECONCILER_START_MS + 60_000;

/** The last lines a child printed, for a failure's message (its whole log may be long). */
const PRINTED_LINES = 60;

/**
 * Starts `pnpm start`'s script with exactly `env` (plus PATH) and waits for its ready line. When none comes (it
 * exited, or hung past RECONCILER_START_MS), the child is killed and the error says what it printed.
 */
export async function startReconcilerProcess(cwd: string, env: Record<string, string>): Promise<ReconcilerProcess> {
  const running = startNode(reconcilerScript('main.js'), { cwd, env: { PORT: '0', ...env } });
  let ready: Record<string, unknown>;
  try {
    ready = await waitForEvent(running, 'reconciler-ready', RECONCILER_START_MS);
  } catch (error) {
    await killIfRunning([running]);
    const exit = await running.exit;
    const printed = running.output().trimEnd().split('\n').slice(-PRINTED_LINES).join('\n');
    const firstLine = (error as Error).message.split('\n')[0].replace(/:$/, '');
    throw new Error(
      `the reconciler did not start (${firstLine}; exit code ${exit.code}, signal ${exit.signal}); ` +
        (printed === '' ? 'it printed nothing' : `the last of what it printed:\n${printed}`),
    );
  }
  const url = String(ready.url);
  return {
    running,
    url,
    async admin(method, path, body) {
      const response = await fetch(`${url}${path}`, {
        method,
        headers: { authorization: `Bearer ${env.ADMIN_TOKEN ?? ADMIN_TOKEN}`, 'content-type': 'application/json' },
        ...(body !== undefined && { body: JSON.stringify(body) }),
      });
      const text = await response.text();
      return { status: response.status, json: text ? JSON.parse(text) : undefined };
    },
    async stop() {
      if (running.child.exitCode === null && running.child.signalCode === null) running.child.kill('SIGTERM');
      return running.exit;
    },
  };
}

/** Kills what a failed test left running. */
export async function killIfRunning(processes: (ReconcilerProcess | RunningProcess | undefined)[]): Promise<void> {
  for (const entry of processes) {
    const running = entry && 'running' in entry ? entry.running : entry;
    if (running && running.child.exitCode === null && running.child.signalCode === null) {
      running.child.kill('SIGKILL');
      await running.exit;
    }
  }
}

/** Runs the `giro-reconciler` command with `args` (`sweep --once`, `migrate`…) to its end. */
export function runReconcilerCommand(
  cwd: string,
  env: Record<string, string>,
  args: string[],
): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, [reconcilerScript('main.js'), ...args], {
    cwd,
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString('utf8');
  });
  child.stderr.on('data', (chunk: Buffer) => {
    output += chunk.toString('utf8');
  });
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, output })));
}
