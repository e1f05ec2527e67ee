import { createCertificateAuthority, issueCertificate } from './certs/dev-certificates';
import type { SandboxBank } from './sandbox-bank';
import { startTestSandbox, type TestSandbox, TRANSFER_PATH, transferRequest } from './testing/test-sandbox';

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;

function expectNothingProcessed(bank: SandboxBank) {
  expect(bank.ledger.size).toBe(0);
  expect(bank.counters().processed).toBe(0);
}

describe('sandbox bank: authentication', () => {
  let sandbox: TestSandbox;
  beforeAll(async () => {
    sandbox = await startTestSandbox({ credentials: { tokenTtlSeconds: 60 } });
  });
  afterAll(() => sandbox.bank.close());
  beforeEach(() => sandbox.bank.reset());

  const create = (options: Parameters<TestSandbox['client']['post']>[2] = {}) =>
    sandbox.client.post(TRANSFER_PATH, transferRequest(201), options);

  async function expectUnauthorized(options: Parameters<typeof create>[0], code: string) {
    const response = await create(options);
    expect(response.status).toBe(401);
    expect(response.json).toEqual({ code, message: expect.any(String) });
    expectNothingProcessed(sandbox.bank);
    expect(sandbox.bank.counters().requests['transfer-request']).toEqual({ unauthorized: 1 });
  }

  it('accepts a correctly signed request with the static token', async () => {
    expect((await create()).status).toBe(200);
    expect(sandbox.bank.ledger.size).toBe(1);
  });

  it('accepts an HMAC-SHA512 signature', async () => {
    expect((await create({ algorithm: 'sha512' })).status).toBe(200);
  });

  describe('mutual TLS', () => {
    it('refuses a client without a certificate at the TLS layer', async () => {
      const anonymous = sandbox.client.withTls({ ca: sandbox.certs.ca.cert });
      await expect(anonymous.post(TRANSFER_PATH, transferRequest(202))).rejects.toThrow(
        /certificate required|ECONNRESET|socket hang up/,
      );
      expectNothingProcessed(sandbox.bank);
    });

    it('refuses a client certificate issued by another CA', async () => {
      const otherCa = await createCertificateAuthority('not the sandbox CA');
      const stranger = await issueCertificate(otherCa, { commonName: 'stranger', usage: 'client' });
      const client = sandbox.client.withTls({ ca: sandbox.certs.ca.cert, cert: stranger.cert, key: stranger.key });
      await expect(client.post(TRANSFER_PATH, transferRequest(203))).rejects.toThrow(
        /unknown ca|ECONNRESET|socket hang up/,
      );
      expectNothingProcessed(sandbox.bank);
    });

    it('protects the control surface with mutual TLS too', async () => {
      const anonymous = sandbox.client.withTls({ ca: sandbox.certs.ca.cert });
      await expect(anonymous.send('GET', '/__sandbox/counters')).rejects.toThrow();
    });
  });

  describe('HMAC', () => {
    it('refuses a signature made with another secret', () =>
      expectUnauthorized({ hmacSecret: 'not-the-secret' }, 'INVALID_SIGNATURE'));

    it('refuses a tampered body', () =>
      expectUnauthorized({ signedBody: JSON.stringify(transferRequest(201, 'sandbox test', 1)) }, 'INVALID_SIGNATURE'));

    it('refuses a request without signature headers', () => expectUnauthorized({ sign: false }, 'MISSING_SIGNATURE'));

    it('refuses a timestamp more than 300 s away from the bank clock, either way', async () => {
      const now = Math.floor(sandbox.clock.now().getTime() / 1000);
      await expectUnauthorized({ timestamp: now - 301 }, 'STALE_TIMESTAMP');
      sandbox.bank.reset();
      await expectUnauthorized({ timestamp: now + 301 }, 'STALE_TIMESTAMP');
      sandbox.bank.reset();
      expect((await create({ timestamp: now - 300 })).status).toBe(200);
    });

    it('refuses a signature that is not base64 of a SHA-256 or SHA-512 HMAC', () =>
      expectUnauthorized({ headers: { 'x-signature': Buffer.alloc(20).toString('base64') } }, 'INVALID_SIGNATURE'));
  });

  describe('access token', () => {
    it('refuses an unknown token', () => expectUnauthorized({ token: 'guessed-token' }, 'INVALID_TOKEN'));

    it('refuses a request without a token', () => expectUnauthorized({ token: null }, 'MISSING_TOKEN'));

    it('refuses a token after another scheme word', () =>
      expectUnauthorized({ headers: { authorization: 'JWT sandbox-token' } }, 'MISSING_TOKEN'));

    it('issues a token for form-encoded client credentials, which works until it expires', async () => {
      const issued = await sandbox.client.send(
        'POST',
        '/oauth/token',
        form({ grant_type: 'client_credentials', client_id: 'sandbox', client_secret: 'sandbox-secret' }),
        FORM,
      );
      expect(issued.status).toBe(200);
      expect(issued.headers['cache-control']).toBe('no-store');
      expect(issued.json).toEqual({ access_token: expect.any(String), token_type: 'Bearer', expires_in: 60 });
      const token = issued.json.access_token;

      expect((await create({ token })).status).toBe(200);
      sandbox.bank.reset();
      sandbox.clock.advance(60_000);
      await expectUnauthorized({ token }, 'TOKEN_EXPIRED');
    });

    it('issues a token to a client authenticated with HTTP Basic and a JSON body', async () => {
      const issued = await sandbox.client.send(
        'POST',
        '/oauth/token',
        JSON.stringify({ grant_type: 'client_credentials' }),
        {
          'content-type': 'application/json',
          authorization: basic('sandbox', 'sandbox-secret'),
        },
      );
      expect(issued.status).toBe(200);
      expect((await create({ token: issued.json.access_token })).status).toBe(200);
    });

    it('refuses wrong client credentials and other grant types, issuing nothing', async () => {
      const wrongSecret = await sandbox.client.send(
        'POST',
        '/oauth/token',
        form({ grant_type: 'client_credentials' }),
        { ...FORM, authorization: basic('sandbox', 'wrong') },
      );
      expect(wrongSecret.status).toBe(401);
      expect(wrongSecret.json.error).toBe('invalid_client');
      expect(wrongSecret.headers['www-authenticate']).toMatch(/^Basic/);
      expect(wrongSecret.text).not.toContain('sandbox-secret');

      const noClient = await sandbox.client.send(
        'POST',
        '/oauth/token',
        form({ grant_type: 'client_credentials' }),
        FORM,
      );
      expect(noClient.status).toBe(401);

      const password = await sandbox.client.send(
        'POST',
        '/oauth/token',
        form({ grant_type: 'password', client_id: 'sandbox', client_secret: 'sandbox-secret' }),
        FORM,
      );
      expect(password.status).toBe(400);
      expect(password.json.error).toBe('unsupported_grant_type');
      expect(sandbox.bank.counters().requests['oauth-token']).toEqual({ invalid_client: 2, unsupported_grant_type: 1 });
    });
  });
});

describe('sandbox bank: configurable credentials', () => {
  it('accepts another scheme word and secret, and refuses the defaults', async () => {
    const sandbox = await startTestSandbox({
      credentials: { authScheme: 'JWT', token: 'custom-token', hmacSecret: 'custom-hmac' },
    });
    try {
      const defaults = await sandbox.client.post(TRANSFER_PATH, transferRequest(301));
      expect(defaults.status).toBe(401);
      const bearer = await sandbox.client.post(TRANSFER_PATH, transferRequest(301), {
        hmacSecret: 'custom-hmac',
        headers: { authorization: 'Bearer custom-token' },
      });
      expect(bearer.json.code).toBe('MISSING_TOKEN');
      const jwt = await sandbox.client.post(TRANSFER_PATH, transferRequest(301), {
        hmacSecret: 'custom-hmac',
        headers: { authorization: 'jwt custom-token' },
      });
      expect(jwt.status).toBe(200);
    } finally {
      await sandbox.bank.close();
    }
  });

  it('refuses to start with an empty secret, without echoing any secret', async () => {
    await expect(startTestSandbox({ credentials: { hmacSecret: '', token: 'top-secret-token' } })).rejects.toThrow(
      /credentials\.hmacSecret must be a non-empty string/,
    );
    await expect(startTestSandbox({ credentials: { hmacSecret: '', token: 'top-secret-token' } })).rejects.not.toThrow(
      /top-secret-token/,
    );
  });
});
