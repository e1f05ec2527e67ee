import { createHash, createHmac } from 'node:crypto';
import { createDevCertificates, type DevCertificates } from '@giro/sandbox-bank/certs/dev-certificates';
import { ManualClock } from '../domain';
import { BankAuthError, BankNotSentError } from './bank.errors';
import { BankClient } from './bank-client';
import type { BankClientOptions } from './bank-client.options';
import { API, clientOptions, movementAnswer, transferRequest } from './testing/bank-fixtures';
import { type MtlsTestServer, type RecordedRequest, sendJson, startMtlsTestServer } from './testing/mtls-test-server';
import type { TokenProvider } from './token-provider';

const TOKEN_PATH = '/oauth/token';
const START = Date.parse('2024-05-02T12:00:00Z');

describe('BankClient signing and authentication', () => {
  let certs: DevCertificates;
  let server: MtlsTestServer;
  let clock: ManualClock;
  const clients: BankClient[] = [];

  const newClient = (overrides: Partial<BankClientOptions>) => {
    const client = new BankClient(clientOptions(certs, server.url, { clock, ...overrides }));
    clients.push(client);
    return client;
  };
  const tokenRequests = () => server.requests.filter((r) => r.path === TOKEN_PATH);
  const apiRequests = () => server.requests.filter((r) => r.path !== TOKEN_PATH);

  beforeAll(async () => {
    certs = await createDevCertificates();
    server = await startMtlsTestServer({ ca: certs.ca.cert, ...certs.server });
  });

  beforeEach(() => {
    clock = new ManualClock(START);
  });

  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()));
    server.requests.length = 0;
  });

  afterAll(() => server.close());

  describe('HMAC signing', () => {
    beforeEach(() => server.respond((_request, response) => sendJson(response, 200, movementAnswer(1001))));

    /**
     * The default HMAC scheme (docs/bank-api.md#the-default-hmac-scheme), computed independently from the bytes
     * the server received.
     */
    const expectedSignature = (request: RecordedRequest, secret: string, algorithm: string) => {
      const bodyHash = createHash('sha256').update(request.body).digest('hex');
      const toSign = `${request.method}\n${request.path}\n${request.headers['x-timestamp']}\n${bodyHash}`;
      return createHmac(algorithm, secret).update(toSign).digest('base64');
    };

    it('signs with the default scheme (sha256), timestamped by the injected clock, with the key id', async () => {
      const client = newClient({ hmac: { secret: 'hmac-secret', keyId: 'key-7' } });

      await client.createTransferRequest(transferRequest(1001));

      const [request] = server.requests;
      expect(request.headers['x-timestamp']).toBe(String(START / 1000));
      expect(request.headers['x-key-id']).toBe('key-7');
      expect(request.headers['x-signature']).toBe(expectedSignature(request, 'hmac-secret', 'sha256'));
    });

    it('signs with sha512 when configured, and the path includes the base path', async () => {
      const client = newClient({ hmac: { secret: 'hmac-secret', algorithm: 'sha512' }, baseUrl: `${server.url}/gw` });

      await client.getMovement({ originId: 1001 });

      const [request] = server.requests;
      expect(request.path).toBe(`/gw${API.getMovement}`);
      expect(request.headers['x-key-id']).toBeUndefined();
      expect(request.headers['x-signature']).toBe(expectedSignature(request, 'hmac-secret', 'sha512'));
      expect(request.headers['x-signature']).not.toBe(expectedSignature(request, 'hmac-secret', 'sha256'));
    });

    it('accepts a custom signer (also asynchronous), given the exact bytes sent', async () => {
      const client = newClient({
        hmac: {
          signer: async ({ method, path, timestamp, body }) => ({
            'x-bank-signature': `${method} ${path} ${timestamp} ${createHash('md5').update(body).digest('hex')}`,
          }),
        },
      });

      await client.getMovement({ originId: 1001 });

      const [request] = server.requests;
      const md5 = createHash('md5').update(request.body).digest('hex');
      expect(request.headers['x-bank-signature']).toBe(`POST ${API.getMovement} ${START / 1000} ${md5}`);
      expect(request.headers['x-signature']).toBeUndefined();
    });

    it('a signer that throws means not sent', async () => {
      const client = newClient({
        hmac: {
          signer: () => {
            throw new Error('HSM unavailable');
          },
        },
      });

      const error = await client.getMovement({ originId: 1001 }).catch((e: unknown) => e);

      expect(error).toBeInstanceOf(BankNotSentError);
      expect((error as Error).message).toMatch(/HSM unavailable/);
      expect(server.requests).toHaveLength(0);
    });
  });

  describe('access token', () => {
    /** A token endpoint issuing token-1, token-2, … and an API that accepts only the latest one. */
    const bankWithTokens = (options: { expiresIn?: number; tokenDelayMs?: number } = {}) => {
      let issued = 0;
      server.respond(async (request, response) => {
        if (request.path === TOKEN_PATH) {
          issued += 1;
          if (options.tokenDelayMs) await new Promise((resolve) => setTimeout(resolve, options.tokenDelayMs));
          sendJson(response, 200, {
            access_token: `token-${issued}`,
            token_type: 'Bearer',
            ...(options.expiresIn !== undefined && { expires_in: options.expiresIn }),
          });
          return;
        }
        const current = `token-${issued}`;
        if (request.headers.authorization?.endsWith(` ${current}`)) sendJson(response, 200, movementAnswer(1001));
        else sendJson(response, 401, { error: 'invalid_token' });
      });
      return { expire: () => (issued += 1) };
    };
    const oauth2 = (extra: Record<string, unknown> = {}) => ({
      auth: {
        oauth2: {
          tokenUrl: `${server.url}${TOKEN_PATH}`,
          clientId: 'giro client',
          clientSecret: 's3cret&more',
          ...extra,
        },
      },
    });

    it('uses the configured scheme word (default Bearer) with a static token', async () => {
      server.respond((_request, response) => sendJson(response, 200, movementAnswer(1001)));
      const jwt = newClient({ auth: { token: 'abc.def.ghi', scheme: 'JWT' } });
      const bearer = newClient({ auth: { token: 'abc.def.ghi' } });

      await jwt.getMovement({ originId: 1001 });
      await bearer.getMovement({ originId: 1001 });

      expect(server.requests.map((r) => r.headers.authorization)).toEqual(['JWT abc.def.ghi', 'Bearer abc.def.ghi']);
    });

    it('OAuth2: asks the token endpoint with client credentials (HTTP Basic, form-encoded), then sends the token', async () => {
      bankWithTokens({ expiresIn: 3600 });
      const client = newClient({ auth: { ...oauth2({ scope: 'transfers' }).auth, scheme: 'JWT' } });

      await client.getMovement({ originId: 1001 });

      const [token] = tokenRequests();
      expect(token.method).toBe('POST');
      expect(token.headers['content-type']).toBe('application/x-www-form-urlencoded');
      expect(Object.fromEntries(new URLSearchParams(token.body.toString()))).toEqual({
        grant_type: 'client_credentials',
        scope: 'transfers',
      });
      const basic = Buffer.from((token.headers.authorization ?? '').replace(/^Basic /, ''), 'base64').toString();
      expect(basic).toBe('giro+client:s3cret%26more');
      expect(apiRequests()[0].headers.authorization).toBe('JWT token-1');
    });

    it('OAuth2: can send the client credentials in the form body instead', async () => {
      bankWithTokens({ expiresIn: 3600 });
      const client = newClient(oauth2({ clientAuthentication: 'body' }));

      await client.getMovement({ originId: 1001 });

      const [token] = tokenRequests();
      expect(token.headers.authorization).toBeUndefined();
      expect(Object.fromEntries(new URLSearchParams(token.body.toString()))).toEqual({
        grant_type: 'client_credentials',
        client_id: 'giro client',
        client_secret: 's3cret&more',
      });
    });

    it('OAuth2: caches the token until shortly before expires_in, then fetches a new one', async () => {
      bankWithTokens({ expiresIn: 3600 });
      const client = newClient(oauth2({ refreshMarginMs: 60_000 }));

      await client.getMovement({ originId: 1001 });
      clock.advance(3_540_000 - 1); // 1 ms before the margin
      await client.getMovement({ originId: 1001 });
      expect(tokenRequests()).toHaveLength(1);

      clock.advance(1);
      await client.getMovement({ originId: 1001 });

      expect(tokenRequests()).toHaveLength(2);
      expect(apiRequests().map((r) => r.headers.authorization)).toEqual([
        'Bearer token-1',
        'Bearer token-1',
        'Bearer token-2',
      ]);
    });

    it('OAuth2: one token request in flight however many requests want a token at once', async () => {
      bankWithTokens({ expiresIn: 3600, tokenDelayMs: 100 });
      const client = newClient(oauth2());

      const movements = await Promise.all(Array.from({ length: 12 }, () => client.getMovement({ originId: 1001 })));

      expect(movements).toHaveLength(12);
      expect(tokenRequests()).toHaveLength(1);
      expect(apiRequests()).toHaveLength(12);
    });

    it('after a 401: exactly one refresh and one retry', async () => {
      const bank = bankWithTokens({ expiresIn: 3600 });
      const client = newClient(oauth2());
      await client.getMovement({ originId: 1001 });
      bank.expire(); // the bank forgets token-1 before its expiry

      const movement = await client.getMovement({ originId: 1001 });

      expect(movement.status).toBe('IN_PROGRESS');
      expect(tokenRequests()).toHaveLength(2);
      expect(apiRequests().map((r) => r.headers.authorization)).toEqual([
        'Bearer token-1',
        'Bearer token-1',
        'Bearer token-3',
      ]);
    });

    it('tells a budgeted call when each of its requests is written to the bank, not its token requests', async () => {
      const bank = bankWithTokens({ expiresIn: 3600 });
      const client = newClient(oauth2());
      const writes: number[] = [];
      // Each write is told before the bank has the request: it has recorded only the ones before.
      const onWritten = () => writes.push(apiRequests().length);
      await client.getMovement({ originId: 1001 }, { onWritten });
      expect(writes).toEqual([0]);
      bank.expire();

      await client.getMovement({ originId: 1001 }, { onWritten });

      // The refused request and its retry reach the bank; the token requests (2 in all) are not bank calls.
      expect(tokenRequests()).toHaveLength(2);
      expect(writes).toEqual([0, 1, 2]);
      // A call not asking to be told tells no one.
      await client.getMovement({ originId: 1001 });
      expect(writes).toHaveLength(3);
    });

    it('after a 401 on many concurrent requests: still one refresh, each request retried once', async () => {
      const bank = bankWithTokens({ expiresIn: 3600, tokenDelayMs: 50 });
      const client = newClient(oauth2());
      await client.getMovement({ originId: 1001 });
      bank.expire();

      await Promise.all(Array.from({ length: 6 }, () => client.getMovement({ originId: 1001 })));

      expect(tokenRequests()).toHaveLength(2);
      expect(apiRequests()).toHaveLength(1 + 6 * 2);
    });

    it('the retry after a 401 is signed again, with a valid signature', async () => {
      const bank = bankWithTokens({ expiresIn: 3600 });
      const client = newClient({ ...oauth2(), hmac: { secret: 'hmac-secret' } });
      await client.getMovement({ originId: 1001 });
      bank.expire();
      clock.advance(5000);

      await client.getMovement({ originId: 1001 });

      const [, refused, retried] = apiRequests();
      expect(retried.headers['x-timestamp']).toBe(String(START / 1000 + 5));
      for (const request of [refused, retried]) {
        const bodyHash = createHash('sha256').update(request.body).digest('hex');
        const toSign = `POST\n${request.path}\n${request.headers['x-timestamp']}\n${bodyHash}`;
        expect(request.headers['x-signature']).toBe(
          createHmac('sha256', 'hmac-secret').update(toSign).digest('base64'),
        );
      }
    });

    it('a second 401 after the retry is an auth error (no further retries)', async () => {
      server.respond((request, response) =>
        request.path === TOKEN_PATH
          ? sendJson(response, 200, { access_token: `fresh-${server.requests.length}`, expires_in: 3600 })
          : sendJson(response, 401, { error: 'invalid_token', error_description: 'token revoked' }),
      );
      const client = newClient(oauth2());

      const error = await client.createTransferRequest(transferRequest(1001)).catch((e: unknown) => e);

      expect(error).toBeInstanceOf(BankAuthError);
      expect(error).toMatchObject({ httpStatus: 401, bankCode: 'invalid_token', bankMessage: 'token revoked' });
      expect(tokenRequests()).toHaveLength(2);
      expect(apiRequests()).toHaveLength(2);
    });

    it('the token endpoint refusing the credentials is an auth error; nothing goes to the API', async () => {
      server.respond((_request, response) =>
        sendJson(response, 401, { error: 'invalid_client', error_description: 'unknown client' }),
      );
      const client = newClient(oauth2());

      const error = await client.createTransferRequest(transferRequest(1001)).catch((e: unknown) => e);

      expect(error).toBeInstanceOf(BankAuthError);
      expect(error).toMatchObject({ operation: 'token', httpStatus: 401, bankCode: 'invalid_client' });
      expect(apiRequests()).toHaveLength(0);
    });

    it.each([
      ['is down (503)', { status: 503, body: {} }],
      ['answers without access_token', { status: 200, body: { token_type: 'Bearer' } }],
    ])('the token endpoint that %s means the request was not sent', async (_label, answer) => {
      server.respond((_request, response) => sendJson(response, answer.status, answer.body));
      const client = newClient(oauth2());

      const error = await client.createTransferRequest(transferRequest(1001)).catch((e: unknown) => e);

      expect(error).toBeInstanceOf(BankNotSentError);
      expect(error).toMatchObject({ operation: 'create-transfer-request' });
      expect(apiRequests()).toHaveLength(0);
    });

    it('OAuth2 without expires_in: the token is kept until the bank refuses it', async () => {
      const bank = bankWithTokens();
      const client = newClient(oauth2());

      await client.getMovement({ originId: 1001 });
      clock.advance(24 * 3_600_000);
      await client.getMovement({ originId: 1001 });
      expect(tokenRequests()).toHaveLength(1);
      bank.expire();
      await client.getMovement({ originId: 1001 });

      expect(tokenRequests()).toHaveLength(2);
    });

    it('a custom provider is asked for each request and told which token the bank refused', async () => {
      const refused: string[] = [];
      let next = 'custom-1';
      const provider: TokenProvider = {
        getToken: async () => next,
        invalidate: (token) => {
          refused.push(token);
          next = 'custom-2';
        },
      };
      server.respond((request, response) =>
        request.headers.authorization === 'Bearer custom-2'
          ? sendJson(response, 200, movementAnswer(1001))
          : sendJson(response, 401, {}),
      );
      const client = newClient({ auth: { provider } });

      await expect(client.getMovement({ originId: 1001 })).resolves.toMatchObject({ originId: 1001 });
      expect(refused).toEqual(['custom-1']);
      expect(server.requests.map((r) => r.headers.authorization)).toEqual(['Bearer custom-1', 'Bearer custom-2']);
    });
  });
});
