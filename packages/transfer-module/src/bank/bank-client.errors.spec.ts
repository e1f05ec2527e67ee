import { type AddressInfo, createServer as createTcpServer, type Socket } from 'node:net';
import { ManualClock } from '../domain';
import {
  BankAuthError,
  BankMalformedAnswerError,
  BankNotSentError,
  BankOutcomeUnknownError,
  BankRateLimitedError,
  BankRejectedError,
} from './bank.errors';
import { useBankClientFixture } from './testing/bank-client-fixture';
import { movementAnswer, transferRequest } from './testing/bank-fixtures';
import { sendJson } from './testing/mtls-test-server';

describe('BankClient errors, by what the caller must do', () => {
  const { server, newClient, answer, bodyOf } = useBankClientFixture();
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
      bankCode: 'INSUFFICIENT_FUNDS',
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
    expect(server().requests).toHaveLength(1);
  });

  it('outcome unknown: the connection is reset after the server read the whole body (never re-sent)', async () => {
    answer((_request, response) => {
      response.socket?.destroy();
    });
    const client = newClient();

    const error = await client.createTransferRequest(transferRequest(4242)).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(BankOutcomeUnknownError);
    expect(error).not.toBeInstanceOf(BankMalformedAnswerError);
    expect(server().requests).toHaveLength(1);
    expect(bodyOf(0)).toEqual(transferRequest(4242));
  });

  it('outcome unknown: no answer headers within headersMs after sending', async () => {
    answer(() => undefined);
    const client = newClient({ timeouts: { headersMs: 300 } });

    const error = await client.createTransferRequest(transferRequest()).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(BankOutcomeUnknownError);
    expect((error as Error).message).toMatch(/UND_ERR_HEADERS_TIMEOUT/);
    expect(server().requests).toHaveLength(1);
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
    expect(unauthorized).toMatchObject({ httpStatus: 401, bankCode: 'invalid_token' });
    expect(forbidden).toBeInstanceOf(BankAuthError);
    expect(server().requests).toHaveLength(2);
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
    expect(seconds).toMatchObject({ retryAfterMs: 7000, bankCode: 'TOO_MANY' });
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
