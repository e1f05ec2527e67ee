import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { type Clock, systemClock } from '@giro/transfer-module';
import type { ApiEndpoint } from './api/api-endpoint';
import { handleApiRequest } from './api/api-request.handler';
import { getMovementEndpoint } from './api/get-movement.endpoint';
import { transferRequestEndpoint } from './api/transfer-request.endpoint';
import { handleOAuthToken, OAUTH_TOKEN_PATH } from './auth/oauth-token.handler';
import {
  applyConfigPatch,
  DEFAULT_SANDBOX_CONFIG,
  type SandboxConfig,
  type SandboxConfigPatch,
} from './config/sandbox-config';
import { DEFAULT_SANDBOX_CREDENTIALS, type SandboxCredentials } from './config/sandbox-credentials';
import { CONTROL_PREFIX, handleControlRequest } from './control/control.handler';
import type { SandboxCounters } from './ledger/counters';
import type { SandboxLedger } from './ledger/ledger';
import { errorReply, sendJson } from './server/http-io';
import { SandboxState } from './server/sandbox-state';

export interface SandboxTls {
  /** PEM server certificate (chain) and its key. */
  cert: string;
  key: string;
  passphrase?: string;
  /** PEM CA(s) a client certificate must chain to: mutual TLS is always required. */
  ca: string | string[];
}

export interface SandboxBankOptions {
  tls: SandboxTls;
  /** 0 (the default) picks a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Drives the movements' states, token expiry and the HMAC timestamp window. Default: the system clock. */
  clock?: Clock;
  /** Overrides of DEFAULT_SANDBOX_CREDENTIALS. */
  credentials?: Partial<SandboxCredentials>;
  /** Overrides of DEFAULT_SANDBOX_CONFIG (timings, duplicate mode, faults, `seed` of the fault PRNG…). */
  config?: SandboxConfigPatch;
  /** Larger request bodies are refused with 413. Default 64 KiB. */
  maxBodyBytes?: number;
  /**
   * A file that keeps the ledger across restarts (created when missing; its movements are restored): a bank
   * knows the transfers it was asked for after a restart, as a real one does. Default: none, the ledger is
   * in memory only.
   */
  ledgerFile?: string;
}

/** A running sandbox bank. */
export interface SandboxBank {
  /** `https://host:port`, no trailing slash. */
  readonly url: string;
  readonly port: number;
  /** Each processed originId with its scenario, states and lookups (the same data as `GET /__sandbox/ledger`). */
  readonly ledger: SandboxLedger;
  /** A snapshot of `GET /__sandbox/counters`. */
  counters(): SandboxCounters;
  config(): SandboxConfig;
  /** Changes the configuration at run time; throws SandboxConfigError (nothing changed) when invalid. */
  configure(patch: SandboxConfigPatch): SandboxConfig;
  /** Forgets every movement (its ledger file starts over too) and zeroes the counters. */
  reset(): void;
  /** Stops listening and drops every connection, hanging ones included. */
  close(): Promise<void>;
}

export class SandboxConfigError extends Error {
  constructor(readonly violations: { field: string; rule: string; message: string }[]) {
    super(`invalid sandbox bank configuration: ${violations.map((violation) => violation.message).join('; ')}`);
  }
}

const API_ENDPOINTS = new Map<string, ApiEndpoint<unknown>>(
  [transferRequestEndpoint, getMovementEndpoint].map((endpoint) => [endpoint.path, endpoint as ApiEndpoint<unknown>]),
);

export async function startSandboxBank(options: SandboxBankOptions): Promise<SandboxBank> {
  const credentials = checkedCredentials({ ...DEFAULT_SANDBOX_CREDENTIALS, ...options.credentials });
  const initial = applyConfigPatch(DEFAULT_SANDBOX_CONFIG, options.config ?? {});
  if (!initial.ok) throw new SandboxConfigError(initial.violations);
  const state = new SandboxState(
    options.clock ?? systemClock,
    credentials,
    initial.config,
    options.maxBodyBytes ?? 64 * 1024,
    options.ledgerFile,
  );

  const server = createServer(
    {
      cert: options.tls.cert,
      key: options.tls.key,
      passphrase: options.tls.passphrase,
      ca: options.tls.ca,
      requestCert: true,
      rejectUnauthorized: true,
      minVersion: 'TLSv1.2',
      keepAlive: true,
    },
    (request, response) => {
      route(state, request, response).catch((error: unknown) => {
        console.error('sandbox bank: unexpected error', error);
        sendJson(response, errorReply(500, 'SANDBOX_ERROR', 'the sandbox bank failed unexpectedly'));
      });
    },
  );
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error) => {
      state.ledger.close();
      reject(error);
    });
    server.listen(options.port ?? 0, host, () => {
      server.removeAllListeners('error');
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `https://${host.includes(':') ? `[${host}]` : host}:${port}`,
    port,
    ledger: state.ledger,
    counters: () => state.counters.snapshot(),
    // Copies: the live configuration changes only through configure().
    config: () => structuredClone(state.config),
    configure(patch) {
      const result = state.configure(patch);
      if (!result.ok) throw new SandboxConfigError(result.violations);
      return structuredClone(result.config);
    },
    reset: () => state.reset(),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
        state.ledger.close();
      }),
  };
}

async function route(state: SandboxState, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const path = (request.url ?? '/').split('?')[0];
  const endpoint = API_ENDPOINTS.get(path);
  if (endpoint) return handleApiRequest(endpoint, state, request, response);
  if (path === OAUTH_TOKEN_PATH) return handleOAuthToken(state, request, response);
  if (path.startsWith(CONTROL_PREFIX)) return handleControlRequest(state, request, response);
  sendJson(response, errorReply(404, 'NOT_FOUND', `no route ${request.method} ${path}`));
}

function checkedCredentials(credentials: SandboxCredentials): SandboxCredentials {
  const problems: string[] = [];
  for (const name of ['token', 'clientId', 'clientSecret', 'hmacSecret'] as const) {
    if (typeof credentials[name] !== 'string' || credentials[name].length === 0) {
      problems.push(`credentials.${name} must be a non-empty string`);
    }
  }
  if (!/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/.test(credentials.authScheme)) {
    problems.push('credentials.authScheme must be a single word (an HTTP auth-scheme token)');
  }
  if (!Number.isInteger(credentials.tokenTtlSeconds) || credentials.tokenTtlSeconds < 1) {
    problems.push('credentials.tokenTtlSeconds must be a positive integer');
  }
  if (problems.length) throw new Error(`invalid sandbox bank credentials: ${problems.join('; ')}`);
  return credentials;
}
