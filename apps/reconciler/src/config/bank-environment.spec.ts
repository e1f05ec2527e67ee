import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDevCertificates } from '@giro/sandbox-bank/certs/dev-certificates';
import { environmentOf } from '@test-support/reconciler-environment';
import { DEMO_PAYER } from '../demo/demo-batch';
import { bankClientOptionsFromEnvironment } from './bank-environment';
import { reconcilerConfigFromEnv } from './reconciler-config';

// The bank client's settings for what the bank leaves open, from BANK_* variables.

const BASE = {
  BANK_BASE_URL: 'https://bank.example.com',
  ENCRYPTION_KEY: 'Z2lybyB0ZXN0IGVuY3J5cHRpb24ga2V5IDMyIGJ5dGU=',
  BANK_CERT_FILE: 'client.pem',
  BANK_KEY_FILE: 'client-key.pem',
  BANK_TOKEN: 'static-token-value',
};

describe('the bank settings of the environment', () => {
  it('passes the proxy, the path prefix, the not-found codes and the DEBIN id field to the bank client', () => {
    const problems: string[] = [];
    const options = bankClientOptionsFromEnvironment(
      environmentOf({
        ...BASE,
        BANK_PROXY_URL: 'http://proxy.internal:3128',
        BANK_PATH_PREFIX: '/gateway/v2/apibank',
        BANK_NOT_FOUND_CODES: ' MOVEMENT_NOT_FOUND , 4040 ,',
        BANK_DEBIN_ID_FIELD: 'idDebin',
      }),
      problems,
    );
    expect(problems).toEqual([]);
    expect(options).toMatchObject({
      proxyUrl: 'http://proxy.internal:3128',
      pathPrefix: '/gateway/v2/apibank',
      notFoundCodes: ['MOVEMENT_NOT_FOUND', '4040'],
      debinIdField: 'idDebin',
    });
  });

  it('leaves them to the bank client defaults when unset', () => {
    const options = bankClientOptionsFromEnvironment(environmentOf(BASE), []);
    for (const key of ['proxyUrl', 'pathPrefix', 'notFoundCodes', 'debinIdField'])
      expect(options).not.toHaveProperty(key);
  });

  describe('with every other variable right', () => {
    let dir: string;
    let realBank: Record<string, string>;
    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), 'giro-bank-env-'));
      const certs = await createDevCertificates();
      const file = (name: string, content: string) => {
        writeFileSync(join(dir, name), content);
        return join(dir, name);
      };
      realBank = {
        BANK_BASE_URL: 'https://bank.example.com',
        ENCRYPTION_KEY: 'Z2lybyB0ZXN0IGVuY3J5cHRpb24ga2V5IDMyIGJ5dGU=',
        BANK_CA_FILE: file('ca.pem', certs.ca.cert),
        BANK_CERT_FILE: file('client.pem', certs.client.cert),
        BANK_KEY_FILE: file('client-key.pem', certs.client.key),
        BANK_TOKEN: 'static-token-value',
        ADMIN_TOKEN: 'admin-token-of-at-least-16',
        AUDIT_HMAC_KEY: 'audit-key-of-at-least-thirty-two-characters',
        SOURCE_ACCOUNTS: `${DEMO_PAYER.address}:${DEMO_PAYER.owner.personId}`,
      };
    });
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    const problems = (env: Record<string, string>) => {
      try {
        reconcilerConfigFromEnv({ ...realBank, ...env });
        return [];
      } catch (error) {
        return (error as { problems: string[] }).problems;
      }
    };

    it('starts with all of them set right', () => {
      expect(
        problems({
          BANK_PROXY_URL: 'http://proxy.internal:3128',
          BANK_PATH_PREFIX: '/gateway/v2/apibank',
          BANK_NOT_FOUND_CODES: 'MOVEMENT_NOT_FOUND',
          BANK_DUPLICATE_CODES: 'DUPLICATED',
          BANK_DEBIN_ID_FIELD: 'idDebin',
          PSP_MODE: 'true',
        }),
      ).toEqual([]);
    });

    it.each([
      [
        'BANK_PROXY_URL',
        'socks://proxy',
        'BANK_PROXY_URL must be the http URL of a forward proxy (CONNECT tunnel), e.g. http://proxy.internal:3128',
      ],
      [
        'BANK_PATH_PREFIX',
        'v2/apibank',
        'BANK_PATH_PREFIX must be a path like /v2/apibank (segments of letters, digits, ".", "_", "~", "-")',
      ],
      [
        'BANK_NOT_FOUND_CODES',
        ' , ',
        'BANK_NOT_FOUND_CODES lists no code: give comma-separated codes, or leave it unset',
      ],
      [
        'BANK_DUPLICATE_CODES',
        ',',
        'BANK_DUPLICATE_CODES lists no code: give comma-separated codes, or leave it unset',
      ],
      ['BANK_DEBIN_ID_FIELD', 'debin id', 'BANK_DEBIN_ID_FIELD must be a JSON field name (letters, digits, _)'],
      ['BANK_DEBIN_ID_FIELD', 'originId', 'BANK_DEBIN_ID_FIELD must not be a field the request already uses'],
      ['BANK_HMAC_ALGORITHM', 'md5', 'BANK_HMAC_ALGORITHM must be sha256 or sha512'],
      ['PSP_MODE', 'yes', 'PSP_MODE must be true or false'],
    ])('refuses %s=%j, naming the variable and the rule', (name, value, message) => {
      expect(problems({ [name]: value })).toEqual([message]);
    });
  });
});
