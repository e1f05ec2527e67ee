import { bankClientOptionsFromEnvironment } from './bank-environment';
import type { ReconcilerEnvironment } from './environment';
import { reconcilerConfigFromEnv } from './reconciler-config';

// The bank client's settings for what the bank leaves open, from BANK_* variables.

const BASE = {
  BANK_BASE_URL: 'https://bank.example.com',
  BANK_CERT_FILE: 'client.pem',
  BANK_KEY_FILE: 'client-key.pem',
  BANK_TOKEN: 'static-token-value',
} as ReconcilerEnvironment;

describe('the bank settings of the environment', () => {
  it('passes the proxy, the path prefix, the not-found codes and the DEBIN id field to the bank client', () => {
    const problems: string[] = [];
    const options = bankClientOptionsFromEnvironment(
      {
        ...BASE,
        BANK_PROXY_URL: 'http://proxy.internal:3128',
        BANK_PATH_PREFIX: '/gateway/v2/apibank',
        BANK_NOT_FOUND_CODES: ' MOVEMENT_NOT_FOUND , 4040 ,',
        BANK_DEBIN_ID_FIELD: 'idDebin',
      } as ReconcilerEnvironment,
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
    const options = bankClientOptionsFromEnvironment(BASE, []);
    for (const key of ['proxyUrl', 'pathPrefix', 'notFoundCodes', 'debinIdField'])
      expect(options).not.toHaveProperty(key);
  });

  it('names the variable of a bad value', () => {
    const problems = (env: Record<string, string>) => {
      try {
        reconcilerConfigFromEnv({ ...env });
        return [];
      } catch (error) {
        return (error as { problems: string[] }).problems;
      }
    };
    expect(problems({ BANK_PROXY_URL: 'socks://proxy' })).toEqual(
      expect.arrayContaining([expect.stringMatching(/^BANK_PROXY_URL must be the http URL of a forward proxy/)]),
    );
  });
});
