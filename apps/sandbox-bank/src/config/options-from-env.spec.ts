import { DEFAULT_SANDBOX_PORT, SandboxEnvError, sandboxOptionsFromEnv } from './options-from-env';

describe('sandboxOptionsFromEnv', () => {
  it('defaults to port 8443 on 127.0.0.1 with the default credentials and configuration', () => {
    expect(sandboxOptionsFromEnv({})).toEqual({
      port: DEFAULT_SANDBOX_PORT,
      host: '127.0.0.1',
      credentials: {},
      config: {},
    });
  });

  it('reads credentials, timings, duplicate mode, seed and faults', () => {
    const options = sandboxOptionsFromEnv({
      SANDBOX_PORT: '9443',
      SANDBOX_TOKEN: 't',
      SANDBOX_CLIENT_ID: 'id',
      SANDBOX_CLIENT_SECRET: 's',
      SANDBOX_HMAC_SECRET: 'h',
      SANDBOX_AUTH_SCHEME: 'JWT',
      SANDBOX_TOKEN_TTL_SECONDS: '120',
      SANDBOX_CREATED_MS: '10',
      SANDBOX_IN_PROGRESS_MS: '20',
      SANDBOX_DELAYED_MIN_INTERVAL_MS: '1000',
      SANDBOX_REGISTRATION_LAG_MS: '50',
      SANDBOX_DUPLICATE_MODE: 'conflict',
      SANDBOX_SEED: '7',
      SANDBOX_FAULTS: '{"serverErrorRate":0.1,"latencyMs":5}',
    });
    expect(options).toEqual({
      port: 9443,
      host: '127.0.0.1',
      credentials: {
        token: 't',
        clientId: 'id',
        clientSecret: 's',
        hmacSecret: 'h',
        authScheme: 'JWT',
        tokenTtlSeconds: 120,
      },
      config: {
        timings: { createdMs: 10, inProgressMs: 20 },
        polling: { delayedMinIntervalMs: 1000 },
        registrationLagMs: 50,
        duplicateMode: 'conflict',
        seed: 7,
        faults: { serverErrorRate: 0.1, latencyMs: 5 },
      },
    });
  });

  it('names every bad variable and its rule, never a secret value', () => {
    let error: unknown;
    try {
      sandboxOptionsFromEnv({
        SANDBOX_PORT: '70000',
        SANDBOX_HMAC_SECRET: '  ',
        SANDBOX_CREATED_MS: '-5',
        SANDBOX_DUPLICATE_MODE: 'maybe',
        SANDBOX_FAULTS: 'not json',
        SANDBOX_TOKEN: 'very-secret-token',
      });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(SandboxEnvError);
    expect((error as SandboxEnvError).problems).toEqual([
      'SANDBOX_HMAC_SECRET must not be empty',
      'SANDBOX_CREATED_MS must be an integer between 0 and 9007199254740991',
      'SANDBOX_FAULTS must be a JSON object, e.g. {"serverErrorRate":0.1}',
      'SANDBOX_DUPLICATE_MODE: duplicateMode must be one of return-existing, conflict',
      'SANDBOX_PORT must be an integer between 0 and 65535',
    ]);
    expect((error as Error).message).not.toContain('very-secret-token');
  });

  it('reads the HMAC scheme and the key id it requires, naming a bad variable', () => {
    expect(
      sandboxOptionsFromEnv({
        SANDBOX_HMAC_PRESET: 'single-header',
        SANDBOX_HMAC_SIGNATURE_HEADER: 'Signature',
        SANDBOX_HMAC_KEY_ID: 'key-1',
      }).config,
    ).toEqual({ hmac: { preset: 'single-header', signatureHeader: 'Signature', keyId: 'key-1' } });
    expect(sandboxOptionsFromEnv({ SANDBOX_HMAC_KEY_ID_HEADER: 'X-Api-Key' }).config).toEqual({
      hmac: { keyIdHeader: 'X-Api-Key' },
    });
    expect(() => sandboxOptionsFromEnv({ SANDBOX_HMAC_PRESET: 'aws', SANDBOX_HMAC_KEY_ID: 'a b' })).toThrow(
      expect.objectContaining({
        problems: [
          'SANDBOX_HMAC_PRESET: hmac.preset must be one of default, single-header',
          'SANDBOX_HMAC_KEY_ID: hmac.keyId must be 1 to 200 printable ASCII characters without a comma or a space, or null (not checked)',
        ],
      }),
    );
  });
});
