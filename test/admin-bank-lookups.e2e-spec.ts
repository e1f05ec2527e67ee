import { BankClient } from '@giro/transfer-module/bank';
import {
  FROM_CVU,
  sandboxClientOptions,
  startTestReconciler,
  type TestReconciler,
  testCertificates,
  transferRequest,
} from './support/reconciler-harness';

// The bank's details and lookups through the admin API over HTTP (an in-process reconciler against the
// in-process sandbox bank, one manual clock, the bank's own polling intervals): the details of the latest
// answer on every movement, the network id filter, lookups at the bank of any movement, the network's raw
// format, and the polling rule for each.

describe('the bank through the admin API', () => {
  let r: TestReconciler;
  let client: BankClient;
  beforeAll(async () => {
    r = await startTestReconciler();
    client = new BankClient(sandboxClientOptions(r.bank.url, await testCertificates()));
  });
  afterAll(async () => {
    await client.close();
    await r.close();
  });

  const create = async (originId: number, description = 'bank details') => {
    const created = await r.request('POST', '/admin/transfers', { body: transferRequest({ originId, description }) });
    expect(created.status).toBe(201);
    return created.json;
  };

  it("shows the bank's details of its latest answer on the movement, thisSubAccount the account sent from", async () => {
    const movement = await create(2001);
    const entry = r.bank.ledger.entry(2001);
    expect(movement.bank).toEqual({
      movementId: entry?.id,
      type: 'DEBIT_TRANSFER_SENT_CVU',
      typeDescription: 'Transferencia enviada',
      network: 'COELSA',
      networkId: entry?.networkId,
      postingDatetime: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.000Z$/),
      motiveCode: 'VAR',
      message: 'bank details',
      counterparty: {
        personId: transferRequest().to.owner.personId,
        personIdType: 'CUI',
        personName: expect.any(String),
        accountRouting: { addressType: 'CBU_CVU', address: transferRequest().to.address },
      },
      thisSubAccount: {
        owners: {
          personId: transferRequest().from.owner.personId,
          personIdType: 'CUI',
          personName: expect.any(String),
          personType: 'COMPANY',
        },
        accountRouting: { addressType: 'CVU', address: FROM_CVU },
      },
    });
    expect((await r.request('GET', '/admin/transfers/2001')).json.bank).toEqual(movement.bank);
  });

  it('finds a movement by its network id', async () => {
    const movement = await create(2002);
    const found = await r.request('GET', `/admin/transfers?networkId=${encodeURIComponent(movement.networkId)}`);
    expect(found.status).toBe(200);
    expect(found.json.items.map((item: { originId: number }) => item.originId)).toEqual([2002]);
    const none = await r.request('GET', '/admin/transfers?networkId=NO-SUCH-ID');
    expect(none.json).toEqual({ items: [], nextCursor: null });
    const bad = await r.request('GET', `/admin/transfers?networkId=${'x'.repeat(201)}`);
    expect(bad.status).toBe(400);
    expect(bad.json.violations.map((v: { field: string }) => v.field)).toEqual(['networkId']);
  });

  it('asks the bank about a movement giro does not know, by each name, storing nothing', async () => {
    const { movement } = await client.createTransferRequest({
      ...transferRequest({ originId: 2003 }),
      originId: 2003,
      body: { ...transferRequest().body, amount: 10 },
    } as never);
    const entry = r.bank.ledger.entry(2003);
    const before = r.bank.counters().requests['get-movement'] ?? {};
    for (const lookup of [{ originId: 2003 }, { networkId: entry?.networkId }, { debinId: entry?.debinId }]) {
      const answer = await r.request('POST', '/admin/bank/lookup', { body: lookup });
      expect(answer.status).toBe(200);
      expect(answer.json).toMatchObject({
        stored: false,
        status: 'CREATED',
        originId: 2003,
        amount: '10.00',
        bank: { movementId: movement.id, thisSubAccount: { accountRouting: { address: FROM_CVU } } },
        answer: { id: movement.id },
      });
    }
    expect(r.bank.counters().requests['get-movement']?.found).toBe((before.found ?? 0) + 3);
    expect((await r.request('GET', '/admin/transfers/2003')).status).toBe(404);
    const unknown = await r.request('POST', '/admin/bank/lookup', { body: { networkId: 'NO-SUCH-ID' } });
    expect(unknown.status).toBe(404);
  });

  it('learns from the answer that a DEBIN id names a stored movement: recorded as its query, then 429 before asking', async () => {
    const tooEarlyBefore = r.bank.counters().pollsTooEarly;
    await create(2006);
    const debinId = r.bank.ledger.entry(2006)?.debinId;
    r.clock.advance(5_000);
    const first = await r.request('POST', '/admin/bank/lookup', { body: { debinId } });
    expect(first.status).toBe(200);
    expect(first.json).toMatchObject({ stored: true, originId: 2006, anomaly: null });
    expect((await r.request('GET', '/admin/transfers/2006')).json).toMatchObject({ queries: 1 });
    const again = await r.request('POST', '/admin/bank/lookup', { body: { debinId } });
    expect(again.status).toBe(429);
    expect(again.headers.get('retry-after')).toBe('5');
    expect(r.bank.ledger.entry(2006)?.lookups).toHaveLength(1);
    expect(r.bank.counters().pollsTooEarly).toBe(tooEarlyBefore);
  });

  it('answers 400 naming the fields of a lookup with none or two of them, asking nothing', async () => {
    const before = JSON.stringify(r.bank.counters().requests['get-movement'] ?? {});
    const none = await r.request('POST', '/admin/bank/lookup', { body: {} });
    expect(none.status).toBe(400);
    expect(none.json.message).toMatch(/exactly one of originId, networkId, debinId is required, got none/);
    const two = await r.request('POST', '/admin/bank/lookup', { body: { originId: 1, debinId: 'D' } });
    expect(two.status).toBe(400);
    expect(two.json.violations.map((v: { field: string }) => v.field)).toEqual(['originId', 'debinId']);
    expect(JSON.stringify(r.bank.counters().requests['get-movement'] ?? {})).toBe(before);
  });

  it("returns the network's raw answer as is, 429 with Retry-After when too soon, and holds the next query", async () => {
    const tooEarlyBefore = r.bank.counters().pollsTooEarly; // lookups of movements giro does not store may count
    await create(2004);
    const early = await r.request('GET', '/admin/transfers/2004/raw');
    expect(early.status).toBe(429);
    expect(early.headers.get('retry-after')).toBe('5');
    expect(r.bank.ledger.entry(2004)?.lookups).toHaveLength(0);

    r.clock.advance(5_000);
    const raw = await r.request('GET', '/admin/transfers/2004/raw');
    expect(raw.status).toBe(200);
    expect(raw.json).toMatchObject({ formato: 'COELSA-TRF-1', transferencia: { id_origen: '2004' } });
    expect(r.bank.ledger.entry(2004)?.lookups).toHaveLength(1);

    // Its status is not read: asking again waits as after a DELAYED answer.
    r.clock.advance(600_000);
    const refresh = await r.request('POST', '/admin/transfers/2004/refresh');
    expect(refresh.status).toBe(429);
    expect(refresh.headers.get('retry-after')).toBe('1');
    r.clock.advance(1);
    expect((await r.request('POST', '/admin/transfers/2004/refresh')).json.status).toBe('COMPLETED');
    expect(r.bank.counters().pollsTooEarly).toBe(tooEarlyBefore);
  });

  it('asks about a final movement again only after the polling interval (429 before)', async () => {
    const rejected = await create(2005, 'refused [reject]');
    expect(rejected.status).toBe('FAILED');
    const early = await r.request('POST', '/admin/transfers/2005/refresh');
    expect(early.status).toBe(429);
    expect(early.headers.get('retry-after')).toBe('5');
    r.clock.advance(5_000);
    expect((await r.request('POST', '/admin/transfers/2005/refresh')).status).toBe(200);
  });
});
