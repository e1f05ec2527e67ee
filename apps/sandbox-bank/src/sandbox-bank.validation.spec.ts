import { startTestSandbox, type TestSandbox, TRANSFER_PATH, transferRequest } from './testing/test-sandbox';

type Request = ReturnType<typeof transferRequest>;

/** Each case breaks one rule: field, code, and how. */
const INVALID: [string, string, (request: Request) => unknown][] = [
  ['originId', 'MISSING_FIELD', (r) => ({ ...r, originId: undefined })],
  ['originId', 'INVALID_ORIGIN_ID', (r) => ({ ...r, originId: 0 })],
  ['originId', 'INVALID_ORIGIN_ID', (r) => ({ ...r, originId: 1.5 })],
  ['originId', 'INVALID_ORIGIN_ID', (r) => ({ ...r, originId: 2 ** 53 })],
  ['originId', 'INVALID_ORIGIN_ID', (r) => ({ ...r, originId: '12' })],
  [
    'from.address',
    'INVALID_CBU_CVU',
    (r) => ({ ...r, from: { ...r.from, address: `${r.from.address.slice(0, 21)}0` } }),
  ],
  ['to.address', 'INVALID_CBU_CVU', (r) => ({ ...r, to: { ...r.to, address: '123' } })],
  ['to.addressType', 'INVALID_ADDRESS_TYPE', (r) => ({ ...r, to: { ...r.to, addressType: 'ALIAS' } })],
  [
    'from.owner.personId',
    'INVALID_CUIT',
    (r) => ({ ...r, from: { ...r.from, owner: { personIdType: 'CUI', personId: '20123456780' } } }),
  ],
  [
    'to.owner.personIdType',
    'INVALID_PERSON_ID_TYPE',
    (r) => ({ ...r, to: { ...r.to, owner: { ...r.to.owner, personIdType: 'DNI' } } }),
  ],
  ['to.owner', 'MISSING_FIELD', (r) => ({ ...r, to: { ...r.to, owner: undefined } })],
  ['body.currencyId', 'INVALID_CURRENCY', (r) => ({ ...r, body: { ...r.body, currencyId: '840' } })],
  ['body.amount', 'INVALID_AMOUNT', (r) => ({ ...r, body: { ...r.body, amount: 0 } })],
  ['body.amount', 'INVALID_AMOUNT', (r) => ({ ...r, body: { ...r.body, amount: -5 } })],
  ['body.amount', 'INVALID_AMOUNT', (r) => ({ ...r, body: { ...r.body, amount: 10.005 } })],
  ['body.amount', 'INVALID_TYPE', (r) => ({ ...r, body: { ...r.body, amount: '10.00' } })],
  ['body.concept', 'INVALID_CONCEPT', (r) => ({ ...r, body: { ...r.body, concept: 'XYZ' } })],
  ['body.description', 'INVALID_TYPE', (r) => ({ ...r, body: { ...r.body, description: 12 } })],
  ['body', 'INVALID_TYPE', (r) => ({ ...r, body: [] })],
  ['', 'INVALID_TYPE', () => [1, 2]],
];

describe('sandbox bank: request validation', () => {
  let sandbox: TestSandbox;
  beforeAll(async () => {
    sandbox = await startTestSandbox({ maxBodyBytes: 4096 });
  });
  afterAll(() => sandbox.bank.close());
  beforeEach(() => sandbox.bank.reset());

  it.each(INVALID)('refuses a bad %s with 400 %s and processes nothing', async (field, code, breakIt) => {
    const response = await sandbox.client.post(TRANSFER_PATH, breakIt(transferRequest(601)));
    expect(response.status).toBe(400);
    expect(response.json).toMatchObject({ code, message: expect.stringContaining(field || 'body') });
    expect(response.json.violations).toContainEqual({ field, code, message: expect.any(String) });
    expect(sandbox.bank.ledger.size).toBe(0);
    expect(sandbox.bank.counters().requests['transfer-request']).toEqual({ invalid: 1 });
  });

  it('lists every violation of a request at once', async () => {
    const request = transferRequest(601);
    const response = await sandbox.client.post(TRANSFER_PATH, {
      ...request,
      originId: -1,
      body: { ...request.body, currencyId: '840', concept: 'NOPE' },
    });
    expect(response.json.violations.map((violation: { field: string }) => violation.field)).toEqual([
      'originId',
      'body.currencyId',
      'body.concept',
    ]);
  });

  it('accepts an amount with 2 decimals and keeps it exact', async () => {
    const response = await sandbox.client.post(TRANSFER_PATH, transferRequest(602, 'x', 0.1));
    expect(response.json.details.amount).toBe(0.1);
  });

  it('refuses a body that is not JSON, not declared JSON, or too large', async () => {
    const notJson = await sandbox.client.post(TRANSFER_PATH, undefined, { rawBody: '{"originId": 1,' });
    expect(notJson.status).toBe(400);
    expect(notJson.json.code).toBe('INVALID_JSON');

    const text = await sandbox.client.post(TRANSFER_PATH, transferRequest(603), {
      headers: { 'content-type': 'text/plain' },
    });
    expect(text.status).toBe(415);

    const large = await sandbox.client.post(TRANSFER_PATH, transferRequest(604, 'x'.repeat(5000)));
    expect(large.status).toBe(413);
    expect(large.json.code).toBe('PAYLOAD_TOO_LARGE');
    expect(sandbox.bank.ledger.size).toBe(0);
  });

  it('answers 405 to other methods and 404 to unknown paths', async () => {
    expect((await sandbox.client.send('GET', TRANSFER_PATH)).status).toBe(405);
    expect((await sandbox.client.send('POST', '/v2/apibank/movements/unknown', '{}')).status).toBe(404);
  });
});
