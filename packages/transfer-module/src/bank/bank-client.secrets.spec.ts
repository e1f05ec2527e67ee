import { inspect } from 'node:util';
import { createDevCertificates, type DevCertificates } from '@giro/sandbox-bank/certs/dev-certificates';
import {
  BankAuthError,
  BankConflictError,
  BankError,
  BankMalformedAnswerError,
  BankMovementNotFoundError,
  BankNotSentError,
  BankOptionsError,
  BankOutcomeUnknownError,
  BankRateLimitedError,
  BankRejectedError,
} from './bank.errors';
import { BankClient } from './bank-client';
import { type BankClientOptions, resolveBankClientOptions } from './bank-client.options';
import { secret } from './secret';
import { movementAnswer, transferRequest } from './testing/bank-fixtures';
import { type MtlsTestServer, type RecordedRequest, sendJson, startMtlsTestServer } from './testing/mtls-test-server';

// Sentinels: none of these may appear in anything an error or a client shows.
const PASSPHRASE = 'SENTINEL-passphrase-a1b2';
const HMAC_SECRET = 'SENTINEL-hmac-secret-c3d4';
const STATIC_TOKEN = 'SENTINEL-static-token-e5f6';
const CLIENT_SECRET = 'SENTINEL-client-secret-g7h8';
const ACCESS_TOKEN = 'SENTINEL-access-token-i9j0';
const TOKEN_PATH = '/oauth/token';

describe('BankClient keeps secrets secret', () => {
  let certs: DevCertificates;
  let server: MtlsTestServer;
  let keyBody: string;
  const clients: BankClient[] = [];

  const sentinels = () => [PASSPHRASE, HMAC_SECRET, STATIC_TOKEN, CLIENT_SECRET, ACCESS_TOKEN, keyBody];

  /** Everything a log line could get out of `value`. */
  const renderings = (value: unknown): string[] => {
    const seen: string[] = [
      inspect(value, { depth: Infinity, showHidden: true }),
      JSON.stringify(value) ?? '',
      String(value),
    ];
    let current: unknown = value;
    for (let depth = 0; current instanceof Error && depth < 10; depth += 1) {
      seen.push(current.message, current.stack ?? '', JSON.stringify(current));
      current = current.cause;
    }
    return seen;
  };
  const expectNoSecret = (value: unknown) => {
    for (const text of renderings(value)) {
      for (const sentinel of sentinels()) expect(text).not.toContain(sentinel);
    }
  };

  const options = (kind: 'static' | 'oauth2', url = server.url): BankClientOptions => ({
    baseUrl: url,
    tls: { ca: certs.ca.cert, cert: certs.client.cert, key: certs.client.key, passphrase: PASSPHRASE },
    auth:
      kind === 'static'
        ? { token: STATIC_TOKEN }
        : { oauth2: { tokenUrl: `${server.url}${TOKEN_PATH}`, clientId: 'giro', clientSecret: CLIENT_SECRET } },
    hmac: { secret: HMAC_SECRET, keyId: 'k1' },
    duplicateCodes: ['DUP'],
  });
  const newClient = (kind: 'static' | 'oauth2', url?: string) => {
    const client = new BankClient(options(kind, url));
    clients.push(client);
    return client;
  };

  /** What a careless bank might echo back: our Authorization header and the body we sent. */
  const echo = (request: RecordedRequest) =>
    `${request.headers.authorization} ${request.headers['x-signature']} ${request.body.toString('utf8')}`;

  beforeAll(async () => {
    certs = await createDevCertificates({ clientKeyPassphrase: PASSPHRASE });
    keyBody = certs.client.key.split('\n')[2];
    server = await startMtlsTestServer({ ca: certs.ca.cert, ...certs.server });
  });

  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()));
  });

  afterAll(() => server.close());

  it.each<[string, new (...args: never[]) => BankError, (request: RecordedRequest) => [number, unknown]]>([
    ['rejected', BankRejectedError, (r) => [422, { code: echo(r), message: echo(r) }]],
    ['conflict', BankConflictError, (r) => [409, { code: 'DUP', message: echo(r) }]],
    ['outcome unknown (5xx)', BankOutcomeUnknownError, (r) => [500, `<title>${echo(r)}</title>`]],
    ['malformed answer', BankMalformedAnswerError, (r) => [200, { ...movementAnswer(1001), status: echo(r) }]],
    ['not found', BankMovementNotFoundError, (r) => [404, { error: echo(r), error_description: echo(r) }]],
    ['auth', BankAuthError, (r) => [401, { error: 'invalid_token', error_description: echo(r) }]],
    ['rate-limited', BankRateLimitedError, (r) => [429, echo(r)]],
  ])('%s: no secret in the error, even when the bank echoes our request', async (_label, errorClass, answer) => {
    for (const kind of ['static', 'oauth2'] as const) {
      server.respond((request, response) => {
        if (request.path === TOKEN_PATH)
          return sendJson(response, 200, { access_token: ACCESS_TOKEN, expires_in: 600 });
        const [status, body] = answer(request);
        sendJson(response, status, body);
      });
      const client = newClient(kind);
      const call =
        errorClass === BankMovementNotFoundError
          ? client.getMovement({ originId: 1001 })
          : client.createTransferRequest(transferRequest(1001));

      const error = await call.catch((e: unknown) => e);

      expect(error).toBeInstanceOf(errorClass);
      expectNoSecret(error);
    }
  });

  it('outcome unknown (reset after sending) and not sent (refused): no secret in the error or its cause', async () => {
    server.respond((request, response) => {
      if (request.path === TOKEN_PATH) return sendJson(response, 200, { access_token: ACCESS_TOKEN, expires_in: 600 });
      response.socket?.destroy();
    });
    const reset = await newClient('oauth2')
      .createTransferRequest(transferRequest(1001))
      .catch((e: unknown) => e);
    const refused = await newClient('static', 'https://127.0.0.1:1')
      .createTransferRequest(transferRequest(1001))
      .catch((e: unknown) => e);

    expect(reset).toBeInstanceOf(BankOutcomeUnknownError);
    expect(refused).toBeInstanceOf(BankNotSentError);
    expect((refused as Error).cause).toBeInstanceOf(Error);
    expectNoSecret(reset);
    expectNoSecret(refused);
  });

  it('the token endpoint echoing our client secret: no secret in the auth error', async () => {
    server.respond((request, response) =>
      sendJson(response, 401, {
        error: 'invalid_client',
        error_description: `${Buffer.from(String(request.headers.authorization).slice(6), 'base64')} ${request.body}`,
      }),
    );

    const error = await newClient('oauth2')
      .getMovement({ originId: 1001 })
      .catch((e: unknown) => e);

    expect(error).toBeInstanceOf(BankAuthError);
    expect((error as BankAuthError).bankMessage).toContain('[redacted]');
    expectNoSecret(error);
  });

  it('the client, its resolved options and options built with secret() print no secret', async () => {
    server.respond((request, response) =>
      request.path === TOKEN_PATH
        ? sendJson(response, 200, { access_token: ACCESS_TOKEN, expires_in: 600 })
        : sendJson(response, 200, movementAnswer(1001)),
    );
    const client = newClient('oauth2');
    await client.getMovement({ originId: 1001 }); // the client now holds an access token
    const wrapped: BankClientOptions = {
      ...options('oauth2'),
      tls: { ...options('oauth2').tls, key: secret(certs.client.key), passphrase: secret(PASSPHRASE) },
      auth: {
        oauth2: { tokenUrl: `${server.url}${TOKEN_PATH}`, clientId: 'giro', clientSecret: secret(CLIENT_SECRET) },
      },
      hmac: { secret: secret(HMAC_SECRET) },
    };

    expectNoSecret(client);
    expectNoSecret(resolveBankClientOptions(options('oauth2')));
    expectNoSecret(resolveBankClientOptions(options('static')));
    expectNoSecret(wrapped);
  });

  it('option errors do not quote secrets (a wrong passphrase, a secret in the wrong place)', () => {
    const wrongPassphrase = catchError(() =>
      resolveBankClientOptions({
        ...options('static'),
        tls: { ...options('static').tls, passphrase: `${PASSPHRASE}x` },
      }),
    );
    const secretAsUrl = catchError(() => resolveBankClientOptions({ ...options('static'), baseUrl: STATIC_TOKEN }));
    const secretInUrl = catchError(() =>
      resolveBankClientOptions({ ...options('static'), proxyUrl: `http://user:${STATIC_TOKEN}@127.0.0.1:3128` }),
    );

    for (const error of [wrongPassphrase, secretAsUrl, secretInUrl]) {
      expect(error).toBeInstanceOf(BankOptionsError);
      expectNoSecret(error);
    }
    expect((wrongPassphrase as Error).message).toBe('bank.tls.key could not be decrypted with bank.tls.passphrase');
  });
});

function catchError(action: () => unknown): unknown {
  try {
    action();
  } catch (error) {
    return error;
  }
  throw new Error('expected an error');
}
