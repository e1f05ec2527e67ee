import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDevCertificates } from '@giro/sandbox-bank/certs/dev-certificates';
import { pollingFloorWarning } from './polling-floor';
import { ConfigError, reconcilerConfigFromEnv } from './reconciler-config';

// The bank's polling minimums with a real bank: below them the reconciler refuses to start, naming the variable
// and the minimum, unless ALLOW_POLLING_BELOW_SPEC=true; sandbox mode keeps its scaled-down intervals.

describe('the polling floor', () => {
  let dir: string;
  let realBank: Record<string, string>;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'giro-floor-'));
    const certs = await createDevCertificates();
    writeFileSync(join(dir, 'client.pem'), certs.client.cert);
    writeFileSync(join(dir, 'client-key.pem'), certs.client.key);
    realBank = {
      BANK_BASE_URL: 'https://bank.example.com',
      ENCRYPTION_KEY: 'Z2lybyB0ZXN0IGVuY3J5cHRpb24ga2V5IDMyIGJ5dGU=',
      BANK_CERT_FILE: join(dir, 'client.pem'),
      BANK_KEY_FILE: join(dir, 'client-key.pem'),
      BANK_TOKEN: 'static-token-value',
      ADMIN_TOKEN: 'admin-token-of-at-least-16',
      AUDIT_HMAC_KEY: 'audit-key-of-at-least-thirty-two-characters',
      SOURCE_ACCOUNTS: '0000003110000000000175:30712345671',
    };
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const problemsOf = (env: Record<string, string>): string[] => {
    try {
      reconcilerConfigFromEnv(env);
    } catch (error) {
      if (error instanceof ConfigError) return error.problems;
      throw error;
    }
    return [];
  };

  it('refuses intervals below the bank minimums with a real bank, naming each variable and its minimum', () => {
    expect(problemsOf({ ...realBank, POLL_MIN_INTERVAL_MS: '4999', DELAYED_MIN_INTERVAL_MS: '599999' })).toEqual([
      expect.stringMatching(
        /^POLL_MIN_INTERVAL_MS is 4999 ms, below the bank's minimum of 5000 ms .*ALLOW_POLLING_BELOW_SPEC=true/,
      ),
      expect.stringMatching(/^DELAYED_MIN_INTERVAL_MS is 599999 ms, below the bank's minimum of 600000 ms/),
    ]);
    expect(problemsOf({ ...realBank, POLL_MIN_INTERVAL_MS: '1' })).toHaveLength(1);
    expect(problemsOf({ ...realBank, POLL_MIN_INTERVAL_MS: '5000', DELAYED_MIN_INTERVAL_MS: '600000' })).toEqual([]);
  });

  it('accepts them with ALLOW_POLLING_BELOW_SPEC=true, and says so in a warning', () => {
    const config = reconcilerConfigFromEnv({
      ...realBank,
      POLL_MIN_INTERVAL_MS: '200',
      DELAYED_MIN_INTERVAL_MS: '1000',
      ALLOW_POLLING_BELOW_SPEC: 'true',
    });
    expect(config.polling).toMatchObject({ minIntervalMs: 200, delayedMinIntervalMs: 1000, allowBelowSpec: true });
    expect(pollingFloorWarning(config.polling)).toMatch(
      /^WARNING: polling the bank below its minimums \(POLL_MIN_INTERVAL_MS=200, DELAYED_MIN_INTERVAL_MS=1000;/,
    );
    expect(pollingFloorWarning({ minIntervalMs: 5000, delayedMinIntervalMs: 600000 })).toBeUndefined();
    expect(problemsOf({ ...realBank, POLL_MIN_INTERVAL_MS: '200', ALLOW_POLLING_BELOW_SPEC: 'false' })).toHaveLength(1);
    expect(problemsOf({ ...realBank, ALLOW_POLLING_BELOW_SPEC: 'yes' })).toEqual([
      'ALLOW_POLLING_BELOW_SPEC must be true or false',
    ]);
  });

  it('keeps the scaled-down intervals of sandbox mode', () => {
    const config = reconcilerConfigFromEnv({ POLL_MIN_INTERVAL_MS: '10', DELAYED_MIN_INTERVAL_MS: '20' });
    expect(config.polling).toMatchObject({ minIntervalMs: 10, delayedMinIntervalMs: 20, allowBelowSpec: true });
  });
});
