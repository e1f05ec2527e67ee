import { type AddressInfo, createServer as createTcpServer, type Socket } from 'node:net';
import { createDevCertificates, type DevCertificates } from '@giro/sandbox-bank/certs/dev-certificates';
import { ManualClock } from '../domain';
import {
  BankAuthError,
  BankConflictError,
  BankMalformedAnswerError,
  BankMovementNotFoundError,
  BankNotSentError,
  BankOutcomeUnknownError,
  BankRateLimitedError,
  BankRejectedError,
} from './bank.errors';
import { BankClient } from './bank-client';
import type { BankClientOptions } from './bank-client.options';
import { API, clientOptions, movementAnswer, transferRequest } from './testing/bank-fixtures';
import { type MtlsTestServer, type Responder, sendJson, startMtlsTestServer } from './testing/mtls-test-server';

describe('BankClient', () => {
  let certs: DevCertificates;
  let server: MtlsTestServer;
  const clients: BankClient[] = [];

  const newClient = (overrides: Partial<BankClientOptions> = {}, url = server.url) => {
    const client = new BankClient(clientOptions(certs, url, overrides));
    clients.push(client);
    return client;
  };
  const answer = (responder: Responder) => server.respond(responder);
  const bodyOf = (index: number) => JSON.parse(server.requests[index].body.toString('utf8'));

  beforeAll(async () => {
    certs = await createDevCertificates();
    server = await startMtlsTestServer({ ca: certs.ca.cert, ...certs.server });
  });

  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()));
    server.requests.length = 0;
  });

  afterAll(() => server.close());

  describe('createTransferRequest', () => {
    it('POSTs the request as JSON to the transfer-request path and parses the movement', async () => {
      answer((_request, response) => sendJson(response, 200, movementAnswer(1001, 'CREATED', { extra: 'kept' })));
      const client = newClient();

      const result = await client.createTransferRequest(transferRequest(1001));

      expect(server.requests).toHaveLength(1);
      const [request] = server.requests;
      expect(request.method).toBe('POST');
      expect(request.path).toBe(API.transferRequest);
      expect(request.headers['content-type']).toBe('application/json');
      expect(request.headers.authorization).toBe('Bearer test-token');
      expect(bodyOf(0)).toEqual(transferRequest(1001));
      expect(result.duplicate).toBe(false);
      expect(result.warning).toBeUndefined();
      expect(result.movement).toMatchObject({
        status: 'CREATED',
        id: 'mov-1001',
        originId: 1001,
        networkId: 'net-1001',
        amount: '1234.50',
        postingDatetime: new Date('2024-05-02T13:45:10Z'),
        counterparty: { personName: 'Ana Pérez', address: '2850590940090418135201' },
      });
      expect((result.movement.raw.details as Record<string, unknown>).extra).toBe('kept');
    });

    it('builds paths from the base URL path and a configurable prefix', async () => {
      answer((_request, response) => sendJson(response, 200, movementAnswer(5)));
      const client = newClient({ pathPrefix: '/v3/api-bank/' }, `${server.url}/gateway/`);

      await client.createTransferRequest(transferRequest(5));
      await client.getMovement({ originId: 5 });

      expect(server.requests.map((r) => r.path)).toEqual([
        '/gateway/v3/api-bank/movements/transfer-request',
        '/gateway/v3/api-bank/movements/get-movement',
      ]);
    });

    it('recognises a repeated originId answered 200 with the original movement and a warning', async () => {
      answer((_request, response) =>
        sendJson(response, 200, { ...movementAnswer(1002, 'COMPLETED'), warning: 'originId already processed' }),
      );
      const client = newClient();

      const result = await client.createTransferRequest(transferRequest(1002));

      expect(result).toMatchObject({ duplicate: true, warning: 'originId already processed' });
      expect(result.movement.status).toBe('COMPLETED');
    });

    it('looks for the duplicate warning in the configured fields only', async () => {
      answer((_request, response) =>
        sendJson(response, 200, { ...movementAnswer(1003), notice: [{ message: 'duplicated' }], message: 'ok' }),
      );
      const client = newClient({ duplicateWarningFields: ['notice'] });

      await expect(client.createTransferRequest(transferRequest(1003))).resolves.toMatchObject({
        duplicate: true,
        warning: 'duplicated',
      });
    });

    it('recognises a repeated originId answered 409, telling duplicate codes from other codes', async () => {
      answer((_request, response) =>
        sendJson(response, 409, { code: 'DUPLICATED_ORIGIN_ID', message: 'already sent' }),
      );
      const client = newClient({ duplicateCodes: ['DUPLICATED_ORIGIN_ID'] });

      const duplicate = await client.createTransferRequest(transferRequest()).catch((e: unknown) => e);
      answer((_request, response) => sendJson(response, 409, { code: 'ACCOUNT_LOCKED' }));
      const other = await client.createTransferRequest(transferRequest()).catch((e: unknown) => e);

      expect(duplicate).toBeInstanceOf(BankConflictError);
      expect(duplicate).toMatchObject({ code: 'DUPLICATED_ORIGIN_ID', isDuplicateCode: true, httpStatus: 409 });
      expect(other).toBeInstanceOf(BankConflictError);
      expect(other).toMatchObject({ code: 'ACCOUNT_LOCKED', isDuplicateCode: false });
    });

    it('reads a configured duplicate code on another 4xx as a duplicate, never as a rejection', async () => {
      answer((_request, response) => sendJson(response, 422, { code: 'DUPLICATED_ORIGIN_ID' }));
      const client = newClient({ duplicateCodes: ['DUPLICATED_ORIGIN_ID'] });
      const duplicate = await client.createTransferRequest(transferRequest()).catch((e: unknown) => e);
      answer((_request, response) => sendJson(response, 422, { code: 'INSUFFICIENT_FUNDS' }));
      const rejected = await client.createTransferRequest(transferRequest()).catch((e: unknown) => e);

      expect(duplicate).toBeInstanceOf(BankConflictError);
      expect(duplicate).toMatchObject({ isDuplicateCode: true, httpStatus: 422 });
      expect(rejected).toBeInstanceOf(BankRejectedError);
    });

    it('refuses an invalid originId before sending anything', async () => {
      const client = newClient();

      await expect(client.createTransferRequest({ ...transferRequest(), originId: 0 })).rejects.toThrow(
        /request\.originId must be at least 1/,
      );
      expect(server.requests).toHaveLength(0);
    });
  });

  describe('getMovement', () => {
    beforeEach(() => answer((_request, response) => sendJson(response, 200, movementAnswer(77, 'DELAYED'))));

    it('looks up by originId, networkId or debinId (field name configurable), one at a time', async () => {
      const client = newClient({ debinIdField: 'idDebin' });

      await client.getMovement({ originId: 77 });
      await client.getMovement({ networkId: 'net-77' });
      await client.getMovement({ debinId: 'debin-9' });

      expect(server.requests.map((r) => r.path)).toEqual([API.getMovement, API.getMovement, API.getMovement]);
      expect([bodyOf(0), bodyOf(1), bodyOf(2)]).toEqual([
        { originId: 77, getRawData: false },
        { networkId: 'net-77', getRawData: false },
        { idDebin: 'debin-9', getRawData: false },
      ]);
    });

    it.each([
      [{}, /exactly one of originId, networkId, debinId \(got none\)/],
      [{ originId: 77, networkId: 'net-77' }, /exactly one .* \(got originId, networkId\)/],
      [{ originId: -3 }, /lookup\.originId must be at least 1/],
      [{ originId: '77' }, /lookup\.originId must be a number/],
      [{ networkId: '' }, /lookup\.networkId must be a non-empty string/],
      [{ movementId: 'x' }, /unknown field\(s\) movementId/],
      [null, /lookup must be an object/],
    ])('throws a TypeError for the lookup %j before sending', async (lookup, message) => {
      const client = newClient();

      const error = await client.getMovement(lookup as never).catch((e: unknown) => e);

      expect(error).toBeInstanceOf(TypeError);
      expect((error as Error).message).toMatch(message);
      expect(server.requests).toHaveLength(0);
    });

    it('returns the network-format answer unparsed with getRawData', async () => {
      const raw = { networkFormat: true, estado: 'ACREDITADA', importe: '10,00' };
      answer((_request, response) => sendJson(response, 200, raw));
      const client = newClient();

      await expect(client.getMovement({ originId: 77 }, { getRawData: true })).resolves.toEqual(raw);
      expect(bodyOf(0)).toEqual({ originId: 77, getRawData: true });
    });

    it('says "not found" for 404 and for a configured not-found code', async () => {
      const client = newClient({ notFoundCodes: ['MOVEMENT_NOT_FOUND'] });

      answer((_request, response) => sendJson(response, 404, ''));
      const plain404 = await client.getMovement({ originId: 77 }).catch((e: unknown) => e);
      answer((_request, response) => sendJson(response, 400, { code: 'MOVEMENT_NOT_FOUND', message: 'unknown' }));
      const byCode = await client.getMovement({ originId: 77 }).catch((e: unknown) => e);
      answer((_request, response) => sendJson(response, 400, { code: 'BAD_FIELD' }));
      const otherCode = await client.getMovement({ originId: 77 }).catch((e: unknown) => e);

      expect(plain404).toBeInstanceOf(BankMovementNotFoundError);
      expect(plain404).toMatchObject({ operation: 'get-movement', httpStatus: 404 });
      expect(byCode).toBeInstanceOf(BankMovementNotFoundError);
      expect(byCode).toMatchObject({ code: 'MOVEMENT_NOT_FOUND', httpStatus: 400 });
      expect(otherCode).toBeInstanceOf(BankRejectedError);
    });

    it('refuses an answer about another originId or networkId as malformed', async () => {
      const client = newClient();

      const otherOrigin = await client.getMovement({ originId: 78 }).catch((e: unknown) => e);
      const otherNetwork = await client.getMovement({ networkId: 'net-999' }).catch((e: unknown) => e);

      expect(otherOrigin).toBeInstanceOf(BankMalformedAnswerError);
      expect((otherOrigin as Error).message).toMatch(/details\.originId 77 is not the requested 78/);
      expect(otherNetwork).toBeInstanceOf(BankMalformedAnswerError);
    });
  });

  describe('errors, by what the caller must do', () => {
    it('rejected: a 4xx business rejection keeps its code and message', async () => {
      answer((_request, response) =>
        sendJson(response, 422, { code: 'INSUFFICIENT_FUNDS', message: 'Saldo insuficiente' }),
      );
      const client = newClient();

      const error = await client.createTransferRequest(transferRequest()).catch((e: unknown) => e);

      expect(error).toBeInstanceOf(BankRejectedError);
      expect(error).toMatchObject({
        operation: 'create-transfer-request',
        httpStatus: 422,
        code: 'INSUFFICIENT_FUNDS',
        bankMessage: 'Saldo insuficiente',
      });
      expect((error as Error).message).toBe(
        'create-transfer-request rejected by the bank (HTTP 422, code INSUFFICIENT_FUNDS: Saldo insuficiente)',
      );
    });

    it.each([500, 502, 503, 504, 408])('outcome unknown: HTTP %i', async (status) => {
      answer((_request, response) => {
        response.writeHead(status, { 'content-type': 'text/html' });
        response.end('<html><head><title>Gateway trouble</title></head><body>…</body></html>');
      });
      const client = newClient();

      const error = await client.createTransferRequest(transferRequest()).catch((e: unknown) => e);

      expect(error).toBeInstanceOf(BankOutcomeUnknownError);
      expect(error).not.toBeInstanceOf(BankMalformedAnswerError);
      expect(error).toMatchObject({ httpStatus: status, bankMessage: 'Gateway trouble' });
      expect(server.requests).toHaveLength(1);
    });

    it('outcome unknown: the connection is reset after the server read the whole body (never re-sent)', async () => {
      answer((_request, response) => {
        response.socket?.destroy();
      });
      const client = newClient();

      const error = await client.createTransferRequest(transferRequest(4242)).catch((e: unknown) => e);

      expect(error).toBeInstanceOf(BankOutcomeUnknownError);
      expect(error).not.toBeInstanceOf(BankMalformedAnswerError);
      expect(server.requests).toHaveLength(1);
      expect(bodyOf(0)).toEqual(transferRequest(4242));
    });

    it('outcome unknown: no answer headers within headersMs after sending', async () => {
      answer(() => undefined);
      const client = newClient({ timeouts: { headersMs: 300 } });

      const error = await client.createTransferRequest(transferRequest()).catch((e: unknown) => e);

      expect(error).toBeInstanceOf(BankOutcomeUnknownError);
      expect((error as Error).message).toMatch(/UND_ERR_HEADERS_TIMEOUT/);
      expect(server.requests).toHaveLength(1);
    });

    it('outcome unknown: the answer body stalls longer than bodyMs', async () => {
      answer((_request, response) => {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.write('{"status":');
      });
      const client = newClient({ timeouts: { bodyMs: 300 } });

      const error = await client.createTransferRequest(transferRequest()).catch((e: unknown) => e);

      expect(error).toBeInstanceOf(BankOutcomeUnknownError);
      expect((error as Error).message).toMatch(/UND_ERR_BODY_TIMEOUT/);
    });

    it('not sent: the connection is refused', async () => {
      const closedPort = await freePort();
      const client = newClient({}, `https://127.0.0.1:${closedPort}`);

      const error = await client.createTransferRequest(transferRequest()).catch((e: unknown) => e);

      expect(error).toBeInstanceOf(BankNotSentError);
      expect((error as Error).message).toMatch(/ECONNREFUSED/);
    });

    it('not sent: the TLS handshake does not finish within connectMs', async () => {
      const silent = await listenSilently();
      try {
        const client = newClient({ timeouts: { connectMs: 300 } }, `https://127.0.0.1:${silent.port}`);

        const error = await client.createTransferRequest(transferRequest()).catch((e: unknown) => e);

        expect(error).toBeInstanceOf(BankNotSentError);
        expect((error as Error).message).toMatch(/UND_ERR_CONNECT_TIMEOUT/);
      } finally {
        await silent.close();
      }
    });

    it('auth: 401 with a static token is not retried (nothing new to retry with); 403 likewise', async () => {
      const client = newClient();

      answer((_request, response) => sendJson(response, 401, { error: 'invalid_token' }));
      const unauthorized = await client.getMovement({ originId: 1 }).catch((e: unknown) => e);
      answer((_request, response) => sendJson(response, 403, { message: 'forbidden' }));
      const forbidden = await client.getMovement({ originId: 1 }).catch((e: unknown) => e);

      expect(unauthorized).toBeInstanceOf(BankAuthError);
      expect(unauthorized).toMatchObject({ httpStatus: 401, code: 'invalid_token' });
      expect(forbidden).toBeInstanceOf(BankAuthError);
      expect(server.requests).toHaveLength(2);
    });

    it('rate-limited: 429 with Retry-After in seconds or as an HTTP date', async () => {
      const clock = new ManualClock(Date.parse('2024-05-02T12:00:00Z'));
      const client = newClient({ clock });

      answer((_request, response) => sendJson(response, 429, { code: 'TOO_MANY' }, { 'retry-after': '7' }));
      const seconds = await client.getMovement({ originId: 1 }).catch((e: unknown) => e);
      answer((_request, response) => sendJson(response, 429, {}, { 'retry-after': 'Thu, 02 May 2024 12:01:30 GMT' }));
      const date = await client.getMovement({ originId: 1 }).catch((e: unknown) => e);
      answer((_request, response) => sendJson(response, 429, {}));
      const none = await client.getMovement({ originId: 1 }).catch((e: unknown) => e);

      expect(seconds).toBeInstanceOf(BankRateLimitedError);
      expect(seconds).toMatchObject({ retryAfterMs: 7000, code: 'TOO_MANY' });
      expect(date).toMatchObject({ retryAfterMs: 90_000 });
      expect(none).toBeInstanceOf(BankRateLimitedError);
      expect((none as BankRateLimitedError).retryAfterMs).toBeUndefined();
    });

    it.each<[string, (response: import('node:http').ServerResponse) => void, RegExp]>([
      [
        'an HTML page',
        (response) => {
          response.writeHead(200, { 'content-type': 'text/html' });
          response.end('<html>maintenance</html>');
        },
        /not JSON/,
      ],
      ['an empty body', (response) => sendJson(response, 200, ''), /an empty body/],
      ['an unknown status', (response) => sendJson(response, 200, movementAnswer(9, 'SETTLED')), /status "SETTLED"/],
      [
        'a missing status',
        (response) => sendJson(response, 200, { ...movementAnswer(9), status: undefined }),
        /status is missing/,
      ],
      [
        'a wrong type',
        (response) => sendJson(response, 200, movementAnswer(9, 'COMPLETED', { networkId: 12345 })),
        /details\.networkId 12345 is not a non-empty string/,
      ],
      [
        'an amount with three decimals',
        (response) => sendJson(response, 200, movementAnswer(9, 'COMPLETED', { amount: 1.234 })),
        /details\.amount 1\.234 is not an amount/,
      ],
      ['a JSON array', (response) => sendJson(response, 200, [movementAnswer(9)]), /not a JSON object/],
      [
        'a body larger than maxResponseBytes',
        (response) => sendJson(response, 200, { ...movementAnswer(9), padding: 'x'.repeat(5000) }),
        /more than 2048 bytes/,
      ],
    ])('malformed answer (outcome unknown, never final): %s', async (_label, respond, message) => {
      answer((_request, response) => respond(response));
      const client = newClient({ maxResponseBytes: 2048 });

      const error = await client.getMovement({ originId: 9 }).catch((e: unknown) => e);

      expect(error).toBeInstanceOf(BankMalformedAnswerError);
      expect(error).toBeInstanceOf(BankOutcomeUnknownError);
      expect((error as Error).message).toMatch(message);
    });

    it('a bounded error body: a huge 4xx answer is cut, not read whole', async () => {
      answer((_request, response) => sendJson(response, 400, { code: 'BAD', message: 'y'.repeat(100_000) }));
      const client = newClient({ maxResponseBytes: 4096 });

      const error = await client.getMovement({ originId: 9 }).catch((e: unknown) => e);

      expect(error).toBeInstanceOf(BankRejectedError);
      expect((error as BankRejectedError).bankMessage?.length ?? 0).toBeLessThanOrEqual(4096);
    });
  });
});

async function freePort(): Promise<number> {
  const silent = await listenSilently();
  await silent.close();
  return silent.port;
}

/** A TCP server that accepts connections and never says a word (no TLS handshake). */
async function listenSilently(): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server = createTcpServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
