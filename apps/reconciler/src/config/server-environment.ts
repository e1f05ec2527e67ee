import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { createSecureContext } from 'node:tls';
import type { ReconcilerEnvironment } from './environment';
import { VARIABLES } from './variables';

/** Express's `trust proxy`: false (none), true (every hop), a number of hops, or the proxies' addresses and subnets. */
export type TrustProxy = boolean | number | string[];

/** The admin server's certificate and key files (ADMIN_TLS_CERT_FILE, ADMIN_TLS_KEY_FILE), checked at start. */
export interface AdminTlsFiles {
  certFile: string;
  keyFile: string;
}

/** How the HTTP server of the admin API, /health, /metrics and /docs is exposed. */
export interface ServerSettings {
  /** The address to listen on (HOST). */
  host: string;
  /** Which proxies' X-Forwarded-For to believe for the client's address (TRUST_PROXY). */
  trustProxy: TrustProxy;
  /** HTTPS with these files; undefined = plain HTTP. */
  tls: AdminTlsFiles | undefined;
  /** The bearer token `/metrics` requires (METRICS_TOKEN); undefined = open. */
  metricsToken: string | undefined;
  /** Requests without a valid admin token one client address may make per minute. */
  unauthenticatedRateLimitPerMinute: number;
  /** How long an upload may take to arrive, and how slowly (UPLOAD_TIMEOUT_MS, UPLOAD_MIN_BYTES_PER_SECOND). */
  uploads: { timeoutMs: number; minBytesPerSecond: number };
}

/** The settings when no server variable is set: loopback only (exposing the admin API is a decision), plain HTTP. */
export const DEFAULT_SERVER_SETTINGS: ServerSettings = {
  host: VARIABLES.HOST.default,
  trustProxy: false,
  tls: undefined,
  metricsToken: undefined,
  unauthenticatedRateLimitPerMinute: VARIABLES.ADMIN_UNAUTHENTICATED_RATE_LIMIT_PER_MINUTE.default,
  uploads: {
    timeoutMs: VARIABLES.UPLOAD_TIMEOUT_MS.default,
    minBytesPerSecond: VARIABLES.UPLOAD_MIN_BYTES_PER_SECOND.default,
  },
};
/** Express's names for address ranges (proxy-addr). */
const RANGE_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

/**
 * The server settings from HOST, TRUST_PROXY, ADMIN_TLS_CERT_FILE / ADMIN_TLS_KEY_FILE, METRICS_TOKEN,
 * ADMIN_UNAUTHENTICATED_RATE_LIMIT_PER_MINUTE, UPLOAD_TIMEOUT_MS and UPLOAD_MIN_BYTES_PER_SECOND. Problems are pushed to `problems`, naming the variable, never a value.
 */
export function serverSettingsFromEnvironment(vars: ReconcilerEnvironment, problems: string[]): ServerSettings {
  return {
    host: vars.HOST,
    trustProxy: trustProxyFromEnvironment(vars.TRUST_PROXY, problems),
    tls: tlsFilesFromEnvironment(vars, problems),
    metricsToken: vars.METRICS_TOKEN,
    unauthenticatedRateLimitPerMinute: vars.ADMIN_UNAUTHENTICATED_RATE_LIMIT_PER_MINUTE,
    uploads: { timeoutMs: vars.UPLOAD_TIMEOUT_MS, minBytesPerSecond: vars.UPLOAD_MIN_BYTES_PER_SECOND },
  };
}

/** `true`, `false`, a number of hops, or a comma-separated list of addresses, subnets and range names. */
export function trustProxyFromEnvironment(value: string | undefined, problems: string[]): TrustProxy {
  if (value === undefined || value === 'false') return false;
  if (value === 'true') return true;
  if (/^\d+$/.test(value)) return Number(value);
  const entries = value.split(',').map((entry) => entry.trim());
  const bad = entries.findIndex((entry) => !isProxyAddress(entry));
  if (bad >= 0) {
    problems.push(
      `TRUST_PROXY must be true, false, a number of proxies, or a comma-separated list of proxy addresses, subnets (10.0.0.0/8) or ${RANGE_NAMES.join(', ')}: entry ${bad + 1} is none of these`,
    );
    return false;
  }
  return entries;
}

function isProxyAddress(entry: string): boolean {
  if (RANGE_NAMES.includes(entry)) return true;
  const [address = '', prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

/** Both files or neither; each readable, the key that of the certificate. */
function tlsFilesFromEnvironment(vars: ReconcilerEnvironment, problems: string[]): AdminTlsFiles | undefined {
  const { ADMIN_TLS_CERT_FILE: certFile, ADMIN_TLS_KEY_FILE: keyFile } = vars;
  if (certFile === undefined && keyFile === undefined) return undefined;
  if (certFile === undefined || keyFile === undefined) {
    const [given, missing] =
      certFile === undefined
        ? ['ADMIN_TLS_KEY_FILE', 'ADMIN_TLS_CERT_FILE']
        : ['ADMIN_TLS_CERT_FILE', 'ADMIN_TLS_KEY_FILE'];
    problems.push(`${missing} is required with ${given}: the admin server's TLS needs both files, or neither`);
    return undefined;
  }
  const cert = readTlsFile('ADMIN_TLS_CERT_FILE', certFile, problems);
  const key = readTlsFile('ADMIN_TLS_KEY_FILE', keyFile, problems);
  if (cert === undefined || key === undefined) return undefined;
  try {
    createSecureContext({ cert, key });
  } catch {
    problems.push('ADMIN_TLS_KEY_FILE is not the key of ADMIN_TLS_CERT_FILE (or one of them is not PEM)');
    return undefined;
  }
  return { certFile, keyFile };
}

function readTlsFile(variable: string, path: string, problems: string[]): Buffer | undefined {
  try {
    return readFileSync(path);
  } catch (error) {
    problems.push(`${variable} could not be read (${(error as NodeJS.ErrnoException).code ?? 'unreadable'})`);
    return undefined;
  }
}

/** The files' contents, for the HTTPS server. */
export function readAdminTls(files: AdminTlsFiles): { cert: Buffer; key: Buffer } {
  return { cert: readFileSync(files.certFile), key: readFileSync(files.keyFile) };
}
