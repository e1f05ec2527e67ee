import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { type SandboxBank, type SandboxConfigPatch, startSandboxBank } from '@giro/sandbox-bank';
import { createDevCertificates, type DevCertificates } from '@giro/sandbox-bank/certs/dev-certificates';
import {
  type ApprovalOptions,
  type BankClientOptions,
  completeCbuCvu,
  completeCuit,
  type SourceAccountLimitsOptions,
} from '@giro/transfer-module';
import { DEFAULT_DATABASE_POOL_SIZE } from '@giro/transfer-module/persistence';
import { ManualClock } from '@giro/transfer-module/testing';
import type { INestApplication } from '@nestjs/common';
import { type ReconcilerConfig, SPEC_POLLING } from '../../apps/reconciler/src/config/reconciler-config';
import { DEFAULT_SERVER_SETTINGS, type ServerSettings } from '../../apps/reconciler/src/config/server-environment';
import type { WebhookSettings } from '../../apps/reconciler/src/config/webhook-environment';
import { createReconcilerApp } from '../../apps/reconciler/src/reconciler-app';

// The reconciler as an in-process Nest HTTP app on a free port, against an in-process sandbox bank, on an
// SQLite file of its own (or the database a test gives). One manual clock drives the bank and giro: polling rules
// are checked exactly and time moves only when a test moves it. Sweeps run only when a test asks (POST /admin/reconcile).

export const ADMIN_TOKEN = 'test-admin-token-0123456789';
/** The key the test reconcilers' audit trails are keyed with (AUDIT_HMAC_KEY). */
export const AUDIT_HMAC_KEY = 'test-audit-hmac-key-0123456789abcdef';

let certificates: Promise<DevCertificates> | undefined;

/** One set of development certificates per test file (key generation is the slow part). */
export function testCertificates(): Promise<DevCertificates> {
  certificates ??= createDevCertificates();
  return certificates;
}

export function sandboxClientOptions(url: string, certs: DevCertificates): BankClientOptions {
  return {
    baseUrl: url,
    tls: { ca: certs.ca.cert, cert: certs.client.cert, key: certs.client.key },
    auth: { token: 'sandbox-token' },
    hmac: { secret: 'sandbox-hmac-secret' },
  };
}

/** Everything the app wrote to its log, one parsed JSON object per line. */
export class LogCapture extends Writable {
  text = '';

  override _write(chunk: Buffer, _encoding: string, done: () => void): void {
    this.text += chunk.toString('utf8');
    done();
  }

  lines(): Record<string, unknown>[] {
    return this.text
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  }
}

export interface HttpAnswer {
  status: number;
  headers: Headers;
  text: string;
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON answers
  json: any;
}

export interface TestReconciler {
  app: INestApplication;
  url: string;
  bank: SandboxBank;
  clock: ManualClock;
  logs: LogCapture;
  /** A request to the app; the admin token is sent unless `token` says otherwise (null: no header). */
  request(
    method: string,
    path: string,
    options?: {
      body?: unknown;
      /** Sent as it is: text, or the bytes of a file. */
      rawBody?: string | Uint8Array;
      token?: string | null;
      headers?: Record<string, string>;
    },
  ): Promise<HttpAnswer>;
  /** Stops the sandbox bank (the reconciler keeps running). */
  stopBank(): Promise<void>;
  close(): Promise<void>;
}

export async function startTestReconciler(
  options: {
    sandboxConfig?: SandboxConfigPatch;
    adminRateLimitPerMinute?: number;
    server?: Partial<ServerSettings>;
    psp?: boolean;
    /** The limits per source account (LIMIT_*, SOURCE_ACCOUNT_LIMITS); default none. */
    limits?: SourceAccountLimitsOptions;
    /** WEBHOOK_*'s settings; default: the module's defaults (loopback receivers refused), no environment endpoint. */
    webhooks?: WebhookSettings;
    /** APPROVAL_REQUIRED_ABOVE, APPROVAL_EXPIRES_AFTER; default none (every transfer is sent at once). */
    approvals?: ApprovalOptions;
    /** DATABASE_URL (a Postgres database of the test's own); default an SQLite file of its own. */
    databaseUrl?: string;
    /** DATABASE_POOL_SIZE; default the module's. */
    databasePoolSize?: number;
    /** NEW_PAYEE_REQUIRES_APPROVAL; default false. */
    newPayeeRequiresApproval?: boolean;
    /** ENCRYPTION_KEY; default none (secrets stored in clear). */
    encryptionKey?: string;
  } = {},
): Promise<TestReconciler> {
  const certs = await testCertificates();
  const clock = new ManualClock(Date.now());
  const bank = await startSandboxBank({
    tls: { cert: certs.server.cert, key: certs.server.key, ca: certs.ca.cert },
    clock,
    config: { polling: SPEC_POLLING, ...options.sandboxConfig },
  });
  const dir = mkdtempSync(join(tmpdir(), 'giro-reconciler-'));
  const config: ReconcilerConfig = {
    port: 0,
    databaseUrl: options.databaseUrl ?? `sqlite:${join(dir, 'giro.sqlite')}`,
    databaseStartTimeoutMs: 0,
    databasePoolSize: options.databasePoolSize ?? DEFAULT_DATABASE_POOL_SIZE,
    adminToken: ADMIN_TOKEN,
    auditHmacKey: AUDIT_HMAC_KEY,
    bank: undefined,
    polling: { ...SPEC_POLLING, scaledForDemo: false, allowBelowSpec: false },
    sweepIntervalMs: 1000,
    adminRateLimitPerMinute: options.adminRateLimitPerMinute ?? 600,
    server: { ...DEFAULT_SERVER_SETTINGS, ...options.server },
    logLevel: 'info',
    ...(options.psp && { psp: true, sourceAccounts: [{ address: FROM_CVU, ownerPersonId: cuit('3071234567') }] }),
    ...(options.webhooks && { webhooks: options.webhooks }),
    ...(options.limits && { limits: options.limits }),
    ...(options.approvals && { approvals: options.approvals }),
    ...(options.newPayeeRequiresApproval && { newPayeeRequiresApproval: true }),
    ...(options.encryptionKey && { encryptionKey: options.encryptionKey }),
  };
  const logs = new LogCapture();
  const app = await createReconcilerApp({
    config,
    bank: sandboxClientOptions(bank.url, certs),
    adminToken: ADMIN_TOKEN,
    scheduleSweeps: false,
    clock,
    logDestination: logs,
  });
  await app.listen(0, '127.0.0.1');
  const { port } = app.getHttpServer().address() as { port: number };
  const url = `${config.server.tls ? 'https' : 'http'}://127.0.0.1:${port}`;
  let bankStopped: Promise<void> | undefined;
  const stopBank = () => {
    bankStopped ??= bank.close();
    return bankStopped;
  };

  return {
    app,
    url,
    bank,
    clock,
    logs,
    async request(method, path, { body, rawBody, token = ADMIN_TOKEN, headers = {} } = {}) {
      const response = await fetch(`${url}${path}`, {
        method,
        headers: {
          ...(token !== null && { authorization: `Bearer ${token}` }),
          ...((body !== undefined || rawBody !== undefined) && { 'content-type': 'application/json' }),
          ...headers,
        },
        ...(body !== undefined && { body: JSON.stringify(body) }),
        ...(rawBody !== undefined && { body: rawBody }),
      });
      const text = await response.text();
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        json = undefined;
      }
      return { status: response.status, headers: response.headers, text, json };
    },
    stopBank,
    async close() {
      await app.close();
      await stopBank();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function cuit(first10: string): string {
  const value = completeCuit(first10);
  if (value === undefined) throw new Error(`no valid CUIT starts with ${first10}`);
  return value;
}

export const FROM_CVU = completeCbuCvu('0000003', '1000000000017');
export const TO_CBU = completeCbuCvu('2850590', '9400900418135');
/** SOURCE_ACCOUNTS for a reconciler sending `transferRequest()`: its `from` account and holder. */
export const SAMPLE_SOURCE_ACCOUNTS = `${FROM_CVU}:${cuit('3071234567')}`;

// Literal types, so that the request is also what @giro/client's generated types accept.
const CBU_CVU = 'CBU_CVU' as const;
const CUI = 'CUI' as const;

/**
 * A valid transfer request (docs/bank-api.md#request-fields) for the admin API (`originId` optional, amount a
 * decimal string here).
 */
export function transferRequest(
  overrides: { originId?: number; description?: string; amount?: number | string; to?: string } = {},
) {
  return {
    ...(overrides.originId !== undefined && { originId: overrides.originId }),
    from: { addressType: CBU_CVU, address: FROM_CVU, owner: { personIdType: CUI, personId: cuit('3071234567') } },
    to: {
      addressType: CBU_CVU,
      address: overrides.to ?? TO_CBU,
      owner: { personIdType: CUI, personId: cuit('2012345678') },
    },
    body: {
      currencyId: '032' as const,
      amount: overrides.amount ?? '1234.50',
      description: overrides.description ?? 'reconciler test',
      concept: 'VAR' as const,
    },
  };
}
