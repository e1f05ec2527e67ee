import {
  BankConflictError,
  BankMalformedAnswerError,
  BankMovementNotFoundError,
  BankRejectedError,
} from './bank.errors';
import { useBankClientFixture } from './testing/bank-client-fixture';
import { API, movementAnswer, transferRequest } from './testing/bank-fixtures';
import { sendJson } from './testing/mtls-test-server';

describe('BankClient', () => {
  const { server, newClient, answer, bodyOf } = useBankClientFixture();

  describe('createTransferRequest', () => {
    it('POSTs the request as JSON to the transfer-request path and parses the movement', async () => {
      answer((_request, response) => sendJson(response, 200, movementAnswer(1001, 'CREATED', { extra: 'kept' })));
      const client = newClient();

      const result = await client.createTransferRequest(transferRequest(1001));

      expect(server().requests).toHaveLength(1);
      const [request] = server().requests;
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
      const client = newClient({ pathPrefix: '/v3/api-bank/' }, `${server().url}/gateway/`);

      await client.createTransferRequest(transferRequest(5));
      await client.getMovement({ originId: 5 });

      expect(server().requests.map((r) => r.path)).toEqual([
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
      expect(duplicate).toMatchObject({ bankCode: 'DUPLICATED_ORIGIN_ID', isDuplicateCode: true, httpStatus: 409 });
      expect(other).toBeInstanceOf(BankConflictError);
      expect(other).toMatchObject({ bankCode: 'ACCOUNT_LOCKED', isDuplicateCode: false });
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
      expect(server().requests).toHaveLength(0);
    });
  });

  describe('getMovement', () => {
    beforeEach(() => answer((_request, response) => sendJson(response, 200, movementAnswer(77, 'DELAYED'))));

    it('looks up by originId, networkId or debinId (field name configurable), one at a time', async () => {
      const client = newClient({ debinIdField: 'idDebin' });

      await client.getMovement({ originId: 77 });
      await client.getMovement({ networkId: 'net-77' });
      await client.getMovement({ debinId: 'debin-9' });

      expect(server().requests.map((r) => r.path)).toEqual([API.getMovement, API.getMovement, API.getMovement]);
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
      expect(server().requests).toHaveLength(0);
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
      expect(byCode).toMatchObject({ bankCode: 'MOVEMENT_NOT_FOUND', httpStatus: 400 });
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
});
