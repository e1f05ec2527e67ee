import { readFileSync } from 'node:fs';
import { request } from 'node:https';
import { join } from 'node:path';
import { type RunningProcess, waitForEvent } from '@giro/sandbox-bank/testing/child-process';
import type { ChildProcesses } from './child-processes';
import { installedBin } from './outside-app';

// The sandbox bank as a separate process, run from an app's installed `giro-sandbox-bank`, on the real clock.
// Its states and polling rule are scaled down so that a transfer is final within a second or two; it counts
// every query that comes sooner than its rule allows, so giro runs with the same intervals (POLLING_ENV).

const SANDBOX_TIMINGS = {
  SANDBOX_CREATED_MS: '200',
  SANDBOX_IN_PROGRESS_MS: '400',
  SANDBOX_DELAYED_MS: '1000',
  SANDBOX_POLL_MIN_INTERVAL_MS: '200',
  SANDBOX_DELAYED_MIN_INTERVAL_MS: '1000',
};

/**
 * giro's side of the sandbox's polling rule, in the variables the fixture app and the reconciler read; below the
 * bank's minimums, which a reconciler with a bank URL accepts only with ALLOW_POLLING_BELOW_SPEC.
 */
export const POLLING_ENV = {
  POLL_MIN_INTERVAL_MS: '200',
  DELAYED_MIN_INTERVAL_MS: '1000',
  ALLOW_POLLING_BELOW_SPEC: 'true',
};

export interface SandboxProcess {
  running: RunningProcess;
  /** The BANK_* variables of a client with the sandbox's development client certificate, token and HMAC secret. */
  bankEnvironment: Record<string, string>;
  /** `GET /__sandbox/counters`: requests, pollsTooEarly, processedTwice… */
  counters(): Promise<Record<string, unknown>>;
}

/** Serves the sandbox from `appDir` (its certs/ folder; made there when missing) and waits for its ready line. */
export async function startSandboxProcess(appDir: string, processes: ChildProcesses): Promise<SandboxProcess> {
  const running = processes.start(installedBin(appDir, '@giro/sandbox-bank', 'giro-sandbox-bank'), {
    cwd: appDir,
    env: { SANDBOX_PORT: '0', ...SANDBOX_TIMINGS },
  });
  const { url } = await waitForEvent(running, 'sandbox-bank-ready', 30_000);
  const certs = join(appDir, 'certs');
  const files = { ca: join(certs, 'ca.pem'), cert: join(certs, 'client.pem'), key: join(certs, 'client-key.pem') };
  return {
    running,
    bankEnvironment: {
      BANK_BASE_URL: String(url),
      ENCRYPTION_KEY: 'Z2lybyB0ZXN0IGVuY3J5cHRpb24ga2V5IDMyIGJ5dGU=',
      AUDIT_HMAC_KEY: 'giro-packaging-audit-hmac-key-0123456789',
      BANK_CA_FILE: files.ca,
      BANK_CERT_FILE: files.cert,
      BANK_KEY_FILE: files.key,
      BANK_TOKEN: 'sandbox-token',
      BANK_HMAC_SECRET: 'sandbox-hmac-secret',
    },
    counters: () => getJson(`${url}/__sandbox/counters`, files),
  };
}

/** A GET over mutual TLS (fetch cannot present a client certificate). */
function getJson(url: string, files: { ca: string; cert: string; key: string }): Promise<Record<string, unknown>> {
  const [ca, cert, key] = [files.ca, files.cert, files.key].map((file) => readFileSync(file, 'utf8'));
  return new Promise((resolve, reject) => {
    const outgoing = request(url, { ca, cert, key }, (response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => {
        body += chunk.toString('utf8');
      });
      response.on('end', () => resolve(JSON.parse(body)));
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}
