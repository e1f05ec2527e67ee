import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDevCertificates } from '@giro/sandbox-bank/certs/dev-certificates';
import { ConfigError, reconcilerConfigFromEnv } from './reconciler-config';
import { DEFAULT_SERVER_SETTINGS } from './server-environment';

function problemsOf(env: Record<string, string>): string[] {
  try {
    reconcilerConfigFromEnv(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('the HTTP server settings of the reconciler', () => {
  let dir: string;
  let files: { cert: string; key: string; otherKey: string };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'giro-server-config-'));
    const [certs, other] = await Promise.all([createDevCertificates(), createDevCertificates()]);
    files = { cert: join(dir, 'server.pem'), key: join(dir, 'server-key.pem'), otherKey: join(dir, 'other-key.pem') };
    writeFileSync(files.cert, certs.server.cert);
    writeFileSync(files.key, certs.server.key);
    writeFileSync(files.otherKey, other.server.key);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('listens on loopback only, trusts no proxy, plain HTTP and open metrics when nothing is set', () => {
    expect(reconcilerConfigFromEnv({}).server).toEqual(DEFAULT_SERVER_SETTINGS);
    expect(DEFAULT_SERVER_SETTINGS).toMatchObject({ host: '127.0.0.1', trustProxy: false, tls: undefined });
  });

  it('takes HOST, TRUST_PROXY in each of its forms, METRICS_TOKEN and the unauthenticated budget', () => {
    const server = (env: Record<string, string>) => reconcilerConfigFromEnv(env).server;
    expect(server({ HOST: '0.0.0.0' }).host).toBe('0.0.0.0');
    expect(server({ HOST: '::' }).host).toBe('::');
    expect(server({ HOST: 'giro.internal' }).host).toBe('giro.internal');
    expect(server({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(server({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(server({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(server({ TRUST_PROXY: 'loopback, 10.0.0.0/8,fd00::/8, 192.168.1.7' }).trustProxy).toEqual([
      'loopback',
      '10.0.0.0/8',
      'fd00::/8',
      '192.168.1.7',
    ]);
    expect(server({ METRICS_TOKEN: 'metrics-token-0123456789' }).metricsToken).toBe('metrics-token-0123456789');
    expect(server({ ADMIN_UNAUTHENTICATED_RATE_LIMIT_PER_MINUTE: '10' }).unauthenticatedRateLimitPerMinute).toBe(10);
  });

  it('names the variable of every bad value, never the value', () => {
    expect(problemsOf({ HOST: 'not a host!' })).toEqual([
      'HOST must be an IP address or a host name to listen on, e.g. 127.0.0.1, or 0.0.0.0 for every interface',
    ]);
    const trust = problemsOf({ TRUST_PROXY: 'loopback,10.0.0.0/33' });
    expect(trust).toEqual([expect.stringMatching(/^TRUST_PROXY must be .*: entry 2 is none of these$/)]);
    expect(problemsOf({ METRICS_TOKEN: 'short' })).toEqual(['METRICS_TOKEN must be at least 16 characters long']);
    expect(problemsOf({ ADMIN_UNAUTHENTICATED_RATE_LIMIT_PER_MINUTE: '0' })).toEqual([
      'ADMIN_UNAUTHENTICATED_RATE_LIMIT_PER_MINUTE must be a whole number of requests between 1 and 1000000',
    ]);
  });

  it('takes the admin TLS files together, checked: readable, and the key that of the certificate', () => {
    expect(
      reconcilerConfigFromEnv({ ADMIN_TLS_CERT_FILE: files.cert, ADMIN_TLS_KEY_FILE: files.key }).server.tls,
    ).toEqual({ certFile: files.cert, keyFile: files.key });
    expect(problemsOf({ ADMIN_TLS_CERT_FILE: files.cert })).toEqual([
      "ADMIN_TLS_KEY_FILE is required with ADMIN_TLS_CERT_FILE: the admin server's TLS needs both files, or neither",
    ]);
    expect(problemsOf({ ADMIN_TLS_KEY_FILE: files.key })).toEqual([
      "ADMIN_TLS_CERT_FILE is required with ADMIN_TLS_KEY_FILE: the admin server's TLS needs both files, or neither",
    ]);
    expect(problemsOf({ ADMIN_TLS_CERT_FILE: join(dir, 'missing.pem'), ADMIN_TLS_KEY_FILE: files.key })).toEqual([
      'ADMIN_TLS_CERT_FILE could not be read (ENOENT)',
    ]);
    expect(problemsOf({ ADMIN_TLS_CERT_FILE: files.cert, ADMIN_TLS_KEY_FILE: files.otherKey })).toEqual([
      'ADMIN_TLS_KEY_FILE is not the key of ADMIN_TLS_CERT_FILE (or one of them is not PEM)',
    ]);
  });
});
