import { randomBytes } from 'node:crypto';
import { dirname, join } from 'node:path';
import { startReadyProcess } from '../ready-process';
import { startSandboxProcess } from '../sandbox/sandbox-process';
import { SOURCE_ACCOUNTS_ENV } from '../workload/transfer-request';

export interface ConsoleServer {
  /** The reconciler's address (the console at `${url}/console`). */
  url: string;
  /** A viewer key made with the admin token, to sign in with. */
  key: string;
  stop(): Promise<void>;
}

/**
 * The reconciler as deployed (apps/reconciler/dist/main.js, its own process, configured by environment) on the
 * SQLite `file`, against the sandbox bank in a process of its own — a bank of its own, so not sandbox mode, and
 * no demo batch adds transfers or work — with a viewer key made through `POST /admin/keys`.
 */
export async function startConsoleServer(file: string, workDir: string): Promise<ConsoleServer> {
  const sandbox = await startSandboxProcess(workDir);
  try {
    const adminToken = randomBytes(24).toString('base64url');
    const { bank } = sandbox;
    const reconciler = await startReadyProcess(
      join(dirname(require.resolve('@giro/reconciler/package.json')), 'dist', 'main.js'),
      {
        cwd: workDir,
        readyEvent: 'reconciler-ready',
        timeoutMs: 120_000,
        env: {
          BANK_BASE_URL: bank.url,
          ENCRYPTION_KEY: 'Z2lybyB0ZXN0IGVuY3J5cHRpb24ga2V5IDMyIGJ5dGU=',
          BANK_CA_FILE: bank.files.ca,
          BANK_CERT_FILE: bank.files.cert,
          BANK_KEY_FILE: bank.files.key,
          BANK_TOKEN: bank.token,
          BANK_HMAC_SECRET: bank.hmacSecret,
          BANK_HMAC_PRESET: bank.hmac.preset,
          ...(bank.hmac.keyId && { BANK_HMAC_KEY_ID: bank.hmac.keyId }),
          SOURCE_ACCOUNTS: SOURCE_ACCOUNTS_ENV,
          DATABASE_URL: `sqlite:${file}`,
          ADMIN_TOKEN: adminToken,
          AUDIT_HMAC_KEY: randomBytes(32).toString('base64url'),
          PORT: '0',
          // The seeded history's few open transfers are unknown to the sandbox bank: a sweep every second would
          // ask it about them all through the run. The sweep's cost on a long history is the replicas section's.
          SWEEP_INTERVAL_MS: '3600000',
          // One browser tab loading page after page: the per-address budgets are sized for people.
          ADMIN_RATE_LIMIT_PER_MINUTE: '100000',
          ADMIN_UNAUTHENTICATED_RATE_LIMIT_PER_MINUTE: '100000',
        },
      },
    );
    try {
      const url = String(reconciler.ready.url);
      const created = await fetch(`${url}/admin/keys`, {
        method: 'POST',
        headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: `bench-console-speed-${Date.now()}`, role: 'viewer' }),
      });
      if (created.status !== 201)
        throw new Error(`POST /admin/keys answered ${created.status}: ${await created.text()}`);
      const { key } = (await created.json()) as { key: string };
      return {
        url,
        key,
        async stop() {
          await reconciler.stop();
          await sandbox.stop();
        },
      };
    } catch (error) {
      await reconciler.stop();
      throw error;
    }
  } catch (error) {
    await sandbox.stop();
    throw error;
  }
}
