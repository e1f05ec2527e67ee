import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDevCertificates } from '@giro/sandbox-bank/certs/dev-certificates';
import { environmentOf } from '@test-support/reconciler-environment';
import { DEMO_PAYER } from '../demo/demo-batch';
import { bankClientOptionsFromEnvironment } from './bank-environment';
import { ConfigError, reconcilerConfigFromEnv } from './reconciler-config';

// The HMAC preset and header names from BANK_HMAC_* variables, checked by the bank client, named by variable.

const BASE = {
  BANK_BASE_URL: 'https://bank.example.com',
  ENCRYPTION_KEY: 'Z2lybyB0ZXN0IGVuY3J5cHRpb24ga2V5IDMyIGJ5dGU=',
  BANK_CERT_FILE: 'client.pem',
  BANK_KEY_FILE: 'client-key.pem',
  BANK_TOKEN: 'static-token-value',
  BANK_HMAC_SECRET: 'hmac-secret-value',
};

describe('the HMAC settings of the environment', () => {
  let dir: string;
  let realBank: (extra: Record<string, string>) => Record<string, string>;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'giro-hmac-env-'));
    const certs = await createDevCertificates();
    const file = (name: string, content: string) => {
      writeFileSync(join(dir, name), content);
      return join(dir, name);
    };
    const bank = {
      BANK_BASE_URL: 'https://bank.example.com',
      ENCRYPTION_KEY: 'Z2lybyB0ZXN0IGVuY3J5cHRpb24ga2V5IDMyIGJ5dGU=',
      BANK_CA_FILE: file('ca.pem', certs.ca.cert),
      BANK_CERT_FILE: file('client.pem', certs.client.cert),
      BANK_KEY_FILE: file('client-key.pem', certs.client.key),
      BANK_TOKEN: 'static-token-value',
      BANK_HMAC_SECRET: 'hmac-secret-value',
      ADMIN_TOKEN: 'admin-token-of-at-least-16',
      AUDIT_HMAC_KEY: 'audit-key-of-at-least-thirty-two-characters',
      SOURCE_ACCOUNTS: `${DEMO_PAYER.address}:${DEMO_PAYER.owner.personId}`,
    };
    realBank = (extra) => ({ ...bank, ...extra });
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const problemsOf = (env: Record<string, string>) => {
    try {
      reconcilerConfigFromEnv(env);
    } catch (error) {
      if (error instanceof ConfigError) return error.problems;
      throw error;
    }
    throw new Error('expected a ConfigError');
  };

  it('passes the preset and the header names to the bank client', () => {
    const problems: string[] = [];
    const options = bankClientOptionsFromEnvironment(
      environmentOf({
        ...BASE,
        BANK_HMAC_TIMESTAMP_HEADER: 'X-Bank-Time',
        BANK_HMAC_SIGNATURE_HEADER: 'X-Bank-Sig',
        BANK_HMAC_KEY_ID_HEADER: 'X-Bank-Key',
      }),
      problems,
    );
    expect(problems).toEqual([]);
    expect(options?.hmac).toMatchObject({
      headers: { timestamp: 'X-Bank-Time', signature: 'X-Bank-Sig', keyId: 'X-Bank-Key' },
    });

    const config = reconcilerConfigFromEnv(
      realBank({ BANK_HMAC_PRESET: 'single-header', BANK_HMAC_SIGNATURE_HEADER: 'X-Api-Signature' }),
    );
    expect(config.bank?.hmac).toMatchObject({ preset: 'single-header', headers: { signature: 'X-Api-Signature' } });
  });

  it('leaves the preset and the header names to the bank client defaults when unset', () => {
    const options = bankClientOptionsFromEnvironment(environmentOf(BASE), []);
    expect(options?.hmac).not.toHaveProperty('preset');
    expect(options?.hmac).not.toHaveProperty('headers');
  });

  it.each([
    ['BANK_HMAC_PRESET', 'aws', 'BANK_HMAC_PRESET must be default or single-header'],
    ['BANK_HMAC_SIGNATURE_HEADER', 'X Sig', 'BANK_HMAC_SIGNATURE_HEADER must be an HTTP header name, e.g. X-Signature'],
    [
      'BANK_HMAC_KEY_ID_HEADER',
      'authorization',
      'BANK_HMAC_KEY_ID_HEADER must not be a header the client sends itself (authorization, content-type, content-length, accept, host, connection)',
    ],
    [
      'BANK_HMAC_TIMESTAMP_HEADER',
      'X-Signature',
      'BANK_HMAC_TIMESTAMP_HEADER must differ from the signature header (X-Signature)',
    ],
  ])('refuses %s=%s, naming the variable', (name, value, problem) => {
    expect(problemsOf(realBank({ [name]: value }))).toEqual([problem]);
  });

  it('refuses a header the preset does not send, naming the variable', () => {
    expect(problemsOf(realBank({ BANK_HMAC_PRESET: 'single-header', BANK_HMAC_TIMESTAMP_HEADER: 'X-Ts' }))).toEqual([
      'BANK_HMAC_TIMESTAMP_HEADER is not used by the single-header preset (it sends signature only)',
    ]);
  });

  it('names each HMAC variable set without BANK_HMAC_SECRET', () => {
    const problems: string[] = [];
    bankClientOptionsFromEnvironment(
      environmentOf({
        ...BASE,
        BANK_HMAC_SECRET: undefined,
        BANK_HMAC_PRESET: 'single-header',
        BANK_HMAC_SIGNATURE_HEADER: 'Sig',
      }),
      problems,
    );
    expect(problems).toEqual([
      'BANK_HMAC_PRESET needs BANK_HMAC_SECRET',
      'BANK_HMAC_SIGNATURE_HEADER needs BANK_HMAC_SECRET',
    ]);
  });
});
