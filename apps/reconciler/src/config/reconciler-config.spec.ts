import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inspect } from 'node:util';
import { createDevCertificates, type DevCertificates } from '@giro/sandbox-bank/certs/dev-certificates';
import { DEMO_PAYER } from '../demo/demo-batch';
import {
  ConfigError,
  databaseUrlFromEnv,
  type ReconcilerConfig,
  reconcilerConfigFromEnv,
  SPEC_POLLING,
} from './reconciler-config';
import { DEFAULT_SERVER_SETTINGS } from './server-environment';
import { DEMO_POLLING } from './variables';

const ADMIN = 'admin-token-of-at-least-16';
const AUDIT_KEY = 'audit-key-of-at-least-thirty-two-characters';

function problemsOf(env: Record<string, string | undefined>): string[] {
  try {
    reconcilerConfigFromEnv(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('reconcilerConfigFromEnv', () => {
  let dir: string;
  let certs: DevCertificates;
  let files: { ca: string; cert: string; key: string; encryptedKey: string; otherKey: string };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'giro-config-'));
    certs = await createDevCertificates();
    const encrypted = await createDevCertificates({ clientKeyPassphrase: 'key-passphrase-value' });
    files = {
      ca: join(dir, 'ca.pem'),
      cert: join(dir, 'client.pem'),
      key: join(dir, 'client-key.pem'),
      encryptedKey: join(dir, 'enc-key.pem'),
      otherKey: join(dir, 'other-key.pem'),
    };
    writeFileSync(files.ca, certs.ca.cert);
    writeFileSync(files.cert, certs.client.cert);
    writeFileSync(files.key, certs.client.key);
    writeFileSync(files.otherKey, certs.server.key);
    writeFileSync(files.encryptedKey, encrypted.client.key);
    writeFileSync(join(dir, 'enc-client.pem'), encrypted.client.cert);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const realBank = (extra: Record<string, string> = {}) => ({
    BANK_BASE_URL: 'https://bank.example.com',
    ENCRYPTION_KEY: 'Z2lybyB0ZXN0IGVuY3J5cHRpb24ga2V5IDMyIGJ5dGU=',
    BANK_CA_FILE: files.ca,
    BANK_CERT_FILE: files.cert,
    BANK_KEY_FILE: files.key,
    BANK_TOKEN: 'static-token-value',
    ADMIN_TOKEN: ADMIN,
    AUDIT_HMAC_KEY: AUDIT_KEY,
    SOURCE_ACCOUNTS: `${DEMO_PAYER.address}:${DEMO_PAYER.owner.personId}`,
    ...extra,
  });

  it('runs in sandbox mode with the documented defaults when nothing is set', () => {
    const config = reconcilerConfigFromEnv({ PATH: '/usr/bin' });
    expect(config).toEqual<ReconcilerConfig>({
      port: 3000,
      databaseUrl: 'sqlite:./data/giro.sqlite',
      databaseStartTimeoutMs: 60_000,
      databasePoolSize: 10,
      adminToken: undefined,
      auditHmacKey: undefined,
      bank: undefined,
      sourceAccounts: [{ address: DEMO_PAYER.address, ownerPersonId: DEMO_PAYER.owner.personId }],
      statementGraceDays: 2,
      schedule: { nonBusinessDayPolicy: 'next', releaseTime: '09:00' },
      polling: { ...DEMO_POLLING, maxJitterMs: 100, scaledForDemo: true, allowBelowSpec: true },
      bankCalls: { maxInFlight: 8, ratePerSecond: undefined },
      sweepIntervalMs: 1000,
      sweep: { batchSize: 100, concurrency: 8 },
      adminRateLimitPerMinute: 600,
      server: DEFAULT_SERVER_SETTINGS,
      certificateWarningDays: 14,
      logLevel: 'info',
      // Always on; the demo's receiver is on loopback (webhook-environment.spec.ts).
      webhooks: { options: { allowLoopback: true, allowPrivate: false } },
    });
  });

  it('treats empty values as unset, like `BANK_BASE_URL=` in a .env file', () => {
    expect(reconcilerConfigFromEnv({ BANK_BASE_URL: '', PORT: '' }).bank).toBeUndefined();
  });

  it('uses the spec polling rule with a real bank, and every value the environment gives', () => {
    const config = reconcilerConfigFromEnv(
      realBank({
        PORT: '8080',
        DATABASE_URL: 'postgres://giro@db/giro',
        DATABASE_START_TIMEOUT_MS: '0',
        DATABASE_POOL_SIZE: '32',
        SWEEP_INTERVAL_MS: '2500',
        ADMIN_RATE_LIMIT_PER_MINUTE: '6000',
        LOG_LEVEL: 'debug',
      }),
    );
    expect(config.polling).toEqual({ ...SPEC_POLLING, maxJitterMs: 500, scaledForDemo: false, allowBelowSpec: false });
    expect(config).toMatchObject({
      port: 8080,
      databaseUrl: 'postgres://giro@db/giro',
      databaseStartTimeoutMs: 0,
      databasePoolSize: 32,
      sweepIntervalMs: 2500,
      adminRateLimitPerMinute: 6000,
      logLevel: 'debug',
      adminToken: ADMIN,
      auditHmacKey: AUDIT_KEY,
    });
    expect(config.bank).toMatchObject({
      baseUrl: 'https://bank.example.com',
      tls: { caFile: files.ca, certFile: files.cert, keyFile: files.key },
    });
  });

  it('keeps explicit polling values in sandbox mode and says the demo scaling is off', () => {
    const config = reconcilerConfigFromEnv({ POLL_MIN_INTERVAL_MS: '5000', DELAYED_MIN_INTERVAL_MS: '600000' });
    expect(config.polling).toEqual({
      minIntervalMs: 5000,
      delayedMinIntervalMs: 600000,
      maxJitterMs: 500,
      scaledForDemo: false,
      allowBelowSpec: true,
    });
  });

  it('reads the jitter bound, the bank-call budget and the sweep settings', () => {
    const config = reconcilerConfigFromEnv(
      realBank({
        POLL_MAX_JITTER_MS: '0',
        BANK_MAX_IN_FLIGHT: '32',
        BANK_RATE_PER_SECOND: '0.5',
        SWEEP_CONCURRENCY: '16',
        SWEEP_BATCH_SIZE: '1000',
      }),
    );
    expect(config.polling.maxJitterMs).toBe(0);
    expect(config.bankCalls).toEqual({ maxInFlight: 32, ratePerSecond: 0.5 });
    expect(config.sweep).toEqual({ batchSize: 1000, concurrency: 16 });
  });

  it('takes the bank-call budget in sandbox mode too: it limits calls, it does not name a bank', () => {
    const config = reconcilerConfigFromEnv({ BANK_MAX_IN_FLIGHT: '2', BANK_RATE_PER_SECOND: '5' });
    expect(config.bank).toBeUndefined();
    expect(config.bankCalls).toEqual({ maxInFlight: 2, ratePerSecond: 5 });
  });

  it.each([
    ['POLL_MAX_JITTER_MS', '-1', 'POLL_MAX_JITTER_MS must be a whole number of milliseconds ≥ 0'],
    ['POLL_MAX_JITTER_MS', '0.5', 'POLL_MAX_JITTER_MS must be a whole number of milliseconds ≥ 0'],
    ['BANK_MAX_IN_FLIGHT', '0', 'BANK_MAX_IN_FLIGHT must be a whole number of bank calls ≥ 1'],
    ['BANK_MAX_IN_FLIGHT', '2.5', 'BANK_MAX_IN_FLIGHT must be a whole number of bank calls ≥ 1'],
    ['BANK_RATE_PER_SECOND', '0', 'BANK_RATE_PER_SECOND must be a number of bank calls per second > 0, e.g. 0.5 or 20'],
    [
      'BANK_RATE_PER_SECOND',
      '-3',
      'BANK_RATE_PER_SECOND must be a number of bank calls per second > 0, e.g. 0.5 or 20',
    ],
    [
      'BANK_RATE_PER_SECOND',
      'fast',
      'BANK_RATE_PER_SECOND must be a number of bank calls per second > 0, e.g. 0.5 or 20',
    ],
    [
      'BANK_RATE_PER_SECOND',
      'Infinity',
      'BANK_RATE_PER_SECOND must be a number of bank calls per second > 0, e.g. 0.5 or 20',
    ],
    ['SWEEP_CONCURRENCY', '0', 'SWEEP_CONCURRENCY must be a whole number of movements between 1 and 1000'],
    ['SWEEP_CONCURRENCY', '1001', 'SWEEP_CONCURRENCY must be a whole number of movements between 1 and 1000'],
    ['SWEEP_BATCH_SIZE', '0', 'SWEEP_BATCH_SIZE must be a whole number of movements between 1 and 1000'],
    ['SWEEP_BATCH_SIZE', '1001', 'SWEEP_BATCH_SIZE must be a whole number of movements between 1 and 1000'],
    ['SWEEP_BATCH_SIZE', 'ten', 'SWEEP_BATCH_SIZE must be a whole number of movements between 1 and 1000'],
  ])('refuses %s=%s, naming the variable and its rule', (name, value, problem) => {
    expect(problemsOf({ [name]: value })).toEqual([problem]);
  });

  it('builds OAuth2 client credentials, HMAC signing and duplicate codes from their variables', () => {
    const config = reconcilerConfigFromEnv(
      realBank({
        BANK_TOKEN: '',
        BANK_TOKEN_URL: 'https://bank.example.com/oauth/token',
        BANK_CLIENT_ID: 'giro',
        BANK_CLIENT_SECRET: 'client-secret-value',
        BANK_AUTH_SCHEME: 'JWT',
        BANK_HMAC_SECRET: 'hmac-secret-value',
        BANK_HMAC_KEY_ID: 'key-1',
        BANK_HMAC_ALGORITHM: 'sha512',
        BANK_DUPLICATE_CODES: 'DUPLICATED, ORIGIN_ID_USED',
        BANK_TIMEOUT_MS: '2500',
      }),
    );
    expect(config.bank?.auth).toMatchObject({
      scheme: 'JWT',
      oauth2: { tokenUrl: 'https://bank.example.com/oauth/token', clientId: 'giro' },
    });
    expect(config.bank?.hmac).toMatchObject({ keyId: 'key-1', algorithm: 'sha512' });
    expect(config.bank?.duplicateCodes).toEqual(['DUPLICATED', 'ORIGIN_ID_USED']);
    expect(config.bank?.timeouts).toEqual({ connectMs: 2500, headersMs: 2500, bodyMs: 2500 });
  });

  it('never shows a secret when the configuration is printed or serialised', () => {
    const config = reconcilerConfigFromEnv(
      realBank({
        BANK_KEY_FILE: files.encryptedKey,
        BANK_CERT_FILE: join(dir, 'enc-client.pem'),
        BANK_KEY_PASSPHRASE: 'key-passphrase-value',
        BANK_HMAC_SECRET: 'hmac-secret-value',
      }),
    );
    const printed = `${inspect(config, { depth: 10 })}${JSON.stringify(config)}`;
    for (const value of ['static-token-value', 'hmac-secret-value', 'key-passphrase-value'])
      expect(printed).not.toContain(value);
  });

  it('lists every bad variable at once, naming each and its rule', () => {
    const problems = problemsOf({
      PORT: 'eighty',
      POLL_MIN_INTERVAL_MS: '0',
      SWEEP_INTERVAL_MS: '1.5',
      ADMIN_RATE_LIMIT_PER_MINUTE: '0',
      LOG_LEVEL: 'loud',
      BANK_BASE_URL: 'http://bank.example.com',
    });
    expect(problems).toEqual(
      expect.arrayContaining([
        'PORT must be an integer between 0 and 65535',
        'POLL_MIN_INTERVAL_MS must be a whole number of milliseconds ≥ 1',
        'SWEEP_INTERVAL_MS must be a whole number of milliseconds between 100 and 3600000',
        'ADMIN_RATE_LIMIT_PER_MINUTE must be a whole number of requests between 1 and 1000000',
        expect.stringMatching(/^LOG_LEVEL must be one of fatal, error/),
        'BANK_BASE_URL must be an https URL, e.g. https://bank.example.com',
      ]),
    );
    expect(problems).toHaveLength(6);
  });

  it('names DATABASE_URL for an unknown scheme without showing the rest of the URL', () => {
    const problems = problemsOf({ DATABASE_URL: 'mysql://root:db-password@host/giro' });
    expect(problems).toEqual([expect.stringContaining('DATABASE_URL must be sqlite:<file path> or postgres://')]);
    expect(problems.join()).not.toContain('db-password');
  });

  it('names DATABASE_START_TIMEOUT_MS and its range for a wait that is not a whole number of milliseconds', () => {
    for (const value of ['-1', '1.5', '3600001']) {
      expect(problemsOf({ DATABASE_START_TIMEOUT_MS: value })).toEqual([
        'DATABASE_START_TIMEOUT_MS must be a whole number of milliseconds between 0 and 3600000',
      ]);
    }
  });

  it('names DATABASE_POOL_SIZE and its range for a pool that is not a whole number of connections from 1 to 200', () => {
    for (const value of ['0', '2.5', '201', 'ten']) {
      expect(problemsOf({ DATABASE_POOL_SIZE: value })).toEqual([
        'DATABASE_POOL_SIZE must be a whole number of connections between 1 and 200',
      ]);
    }
  });

  it('names ENCRYPTION_KEY when it is not a key, never showing it', () => {
    const problems = problemsOf({ ENCRYPTION_KEY: 'c2hvcnQ=' });
    expect(problems).toEqual(['ENCRYPTION_KEY must be base64 of 32 bytes (openssl rand -base64 32)']);
    expect(problems.join(' ')).not.toContain('c2hvcnQ=');
  });

  it('refuses to start against a real bank without ADMIN_TOKEN, AUDIT_HMAC_KEY, mutual TLS and an access token', () => {
    expect(problemsOf({ BANK_BASE_URL: 'https://bank.example.com' })).toEqual([
      'BANK_CERT_FILE is required: the bank requires mutual TLS',
      'BANK_KEY_FILE is required: the bank requires mutual TLS',
      'BANK_TOKEN, or BANK_TOKEN_URL with BANK_CLIENT_ID and BANK_CLIENT_SECRET, is required',
      expect.stringMatching(/^SOURCE_ACCOUNTS is required when BANK_BASE_URL is set/),
      'ENCRYPTION_KEY is required when BANK_BASE_URL is set: base64 of 32 bytes (openssl rand -base64 32)',
      'ADMIN_TOKEN is required when BANK_BASE_URL is set (only sandbox mode generates one)',
      'AUDIT_HMAC_KEY is required when BANK_BASE_URL is set (only sandbox mode generates one)',
    ]);
    expect(problemsOf({ AUDIT_HMAC_KEY: 'too-short-for-a-key' })).toContain(
      'AUDIT_HMAC_KEY must be at least 32 characters long',
    );
  });

  it('refuses a short ADMIN_TOKEN without echoing it', () => {
    const problems = problemsOf({ ADMIN_TOKEN: 'short-secret' });
    expect(problems).toEqual(['ADMIN_TOKEN must be at least 16 characters long']);
  });

  it('refuses bank variables without BANK_BASE_URL instead of silently using the sandbox', () => {
    expect(problemsOf({ BANK_CERT_FILE: files.cert, BANK_TOKEN: 'x' })).toEqual([
      expect.stringMatching(/^BANK_CERT_FILE is set but BANK_BASE_URL is not/),
      expect.stringMatching(/^BANK_TOKEN is set but BANK_BASE_URL is not/),
    ]);
  });

  it('names the variables of an incomplete or contradictory authentication', () => {
    expect(problemsOf(realBank({ BANK_TOKEN: '', BANK_TOKEN_URL: 'https://bank.example.com/token' }))).toEqual([
      'BANK_CLIENT_ID, BANK_CLIENT_SECRET are required with BANK_TOKEN_URL (OAuth2 client credentials)',
    ]);
    expect(problemsOf(realBank({ BANK_CLIENT_ID: 'giro' }))).toEqual([
      'BANK_TOKEN and BANK_CLIENT_ID are exclusive: give a static token or OAuth2 client credentials',
    ]);
    expect(problemsOf(realBank({ BANK_HMAC_KEY_ID: 'key-1' }))).toEqual(['BANK_HMAC_KEY_ID needs BANK_HMAC_SECRET']);
  });

  it('checks the certificate files at start and names the variable of the bad one', () => {
    expect(problemsOf(realBank({ BANK_CERT_FILE: join(dir, 'missing.pem') }))).toEqual([
      'BANK_CERT_FILE could not be read (ENOENT)',
    ]);
    expect(problemsOf(realBank({ BANK_KEY_FILE: files.otherKey }))).toEqual([
      'BANK_KEY_FILE does not belong to BANK_CERT_FILE',
    ]);
    expect(
      problemsOf(
        realBank({
          BANK_KEY_FILE: files.encryptedKey,
          BANK_CERT_FILE: join(dir, 'enc-client.pem'),
          BANK_KEY_PASSPHRASE: 'wrong',
        }),
      ),
    ).toEqual(['BANK_KEY_FILE could not be decrypted with BANK_KEY_PASSPHRASE']);
  });
});

describe('databaseUrlFromEnv (migrate, keys, audit)', () => {
  it('reads DATABASE_URL, its default when unset or empty', () => {
    expect(databaseUrlFromEnv({ DATABASE_URL: 'postgres://giro@db/giro' })).toBe('postgres://giro@db/giro');
    expect(databaseUrlFromEnv({})).toBe('sqlite:./data/giro.sqlite');
    expect(databaseUrlFromEnv({ DATABASE_URL: '' })).toBe('sqlite:./data/giro.sqlite');
  });

  it('names DATABASE_URL in a ConfigError without showing the rest of the URL', () => {
    let problem: unknown;
    try {
      databaseUrlFromEnv({ DATABASE_URL: 'mysql://root:db-password@host/giro' });
    } catch (error) {
      problem = error;
    }
    expect(problem).toBeInstanceOf(ConfigError);
    expect((problem as ConfigError).problems).toEqual([expect.stringContaining('DATABASE_URL must be sqlite:')]);
    expect((problem as Error).message).not.toContain('db-password');
  });
});
