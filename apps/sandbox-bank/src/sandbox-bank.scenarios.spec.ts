import { isValidCuit } from '@giro/transfer-module';
import {
  FROM_CUIT,
  FROM_CVU,
  GET_MOVEMENT_PATH,
  startTestSandbox,
  TEST_START,
  type TestSandbox,
  TO_CBU,
  TO_CUIL,
  TRANSFER_PATH,
  transferRequest,
} from './testing/test-sandbox';

const WIRE_DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

describe('sandbox bank: scenarios driven by the clock', () => {
  let sandbox: TestSandbox;
  beforeAll(async () => {
    sandbox = await startTestSandbox({
      config: { timings: { createdMs: 2_000, inProgressMs: 6_000, delayedMs: 900_000 } },
    });
  });
  afterAll(() => sandbox.bank.close());
  beforeEach(() => {
    sandbox.bank.reset();
    sandbox.clock.set(TEST_START);
  });

  const create = (originId: number, description?: string) =>
    sandbox.client.post(TRANSFER_PATH, transferRequest(originId, description));
  const lookup = (body: object) => sandbox.client.post(GET_MOVEMENT_PATH, body);
  const statusAfter = async (originId: number, ms: number) => {
    sandbox.clock.advance(ms);
    const response = await lookup({ originId });
    expect(response.status).toBe(200);
    return response.json.status;
  };

  it('answers the full movement, every field, CREATED → IN_PROGRESS → COMPLETED as the clock moves', async () => {
    const created = await create(101);
    expect(created.status).toBe(200);
    expect(created.json).toEqual({
      id: expect.any(String),
      status: 'CREATED',
      counterparty: {
        personId: TO_CUIL,
        personIdType: 'CUI',
        personName: expect.any(String),
        accountRouting: { addressType: 'CBU_CVU', address: TO_CBU },
      },
      details: {
        type: 'DEBIT_TRANSFER_SENT_CVU',
        typeDescription: expect.any(String),
        originId: 101,
        network: 'COELSA',
        networkId: expect.any(String),
        postingDatetime: '2024-05-01T12:00:00Z',
        amountCurrency: '032',
        amount: 1234.5,
        motiveCode: 'VAR',
        message: 'sandbox test',
      },
      thisSubAccount: {
        owners: { personId: FROM_CUIT, personIdType: 'CUI', personName: expect.any(String), personType: 'COMPANY' },
        accountRouting: { addressType: 'CVU', address: FROM_CVU },
      },
    });

    expect(await statusAfter(101, 5_000)).toBe('IN_PROGRESS');
    expect(await statusAfter(101, 5_000)).toBe('COMPLETED');
    const completed = (await lookup({ originId: 101 })).json;
    expect(completed.details.completedDatetime).toBe('2024-05-01T12:00:08Z');
    expect(completed.details.postingDatetime).toMatch(WIRE_DATETIME);

    const entry = sandbox.bank.ledger.entry(101);
    expect(entry?.scenario).toBe('normal');
    expect(entry?.states.map((state) => [state.status, state.at])).toEqual([
      ['CREATED', '2024-05-01T12:00:00.000Z'],
      ['IN_PROGRESS', '2024-05-01T12:00:02.000Z'],
      ['COMPLETED', '2024-05-01T12:00:08.000Z'],
    ]);
  });

  it('[other-payee] names another counterparty than the one asked for, always the same, on the account asked for', async () => {
    const created = await create(150, 'pago [other-payee]');
    expect(created.status).toBe(200);
    const { counterparty } = created.json;
    expect(counterparty.personId).toMatch(/^30\d{9}$/);
    expect(counterparty.personId).not.toBe(TO_CUIL);
    expect(isValidCuit(counterparty.personId)).toBe(true);
    expect(counterparty.accountRouting.address).toBe(TO_CBU);
    expect((await lookup({ originId: 150 })).json.counterparty).toEqual(counterparty);
    expect((await create(151, '[OTHER-PAYEE]')).json.counterparty.personId).toBe(counterparty.personId);
    expect((await create(152)).json.counterparty.personId).toBe(TO_CUIL);
  });

  it('[fail] ends FAILED', async () => {
    expect((await create(102, 'rent [fail]')).json.status).toBe('CREATED');
    expect(await statusAfter(102, 5_000)).toBe('IN_PROGRESS');
    expect(await statusAfter(102, 5_000)).toBe('FAILED');
    expect(sandbox.bank.ledger.entry(102)?.scenario).toBe('fail');
  });

  it('[delay] goes DELAYED, then COMPLETED after the configured delay', async () => {
    await create(103, '[delay] invoice');
    expect(await statusAfter(103, 10_000)).toBe('DELAYED');
    expect(await statusAfter(103, 10 * 60_000 + 1)).toBe('DELAYED');
    expect(await statusAfter(103, 10 * 60_000 + 1)).toBe('COMPLETED');
    expect(sandbox.bank.ledger.entry(103)?.states.map((state) => state.status)).toEqual([
      'CREATED',
      'IN_PROGRESS',
      'DELAYED',
      'COMPLETED',
    ]);
  });

  it('[reject] is a 4xx business rejection and nothing is processed', async () => {
    const rejected = await create(104, 'please [reject] this');
    expect(rejected.status).toBe(422);
    expect(rejected.json).toEqual({ code: 'TRANSFER_REJECTED', message: expect.any(String) });
    expect(sandbox.bank.ledger.size).toBe(0);
    expect((await lookup({ originId: 104 })).status).toBe(404);
    expect(sandbox.bank.counters().requests['transfer-request']).toEqual({ rejected: 1 });
  });

  it('[lost] processes the transfer but destroys the connection instead of answering', async () => {
    await expect(create(105, '[lost]')).rejects.toThrow(/socket hang up|ECONNRESET/);
    expect(sandbox.bank.ledger.entry(105)).toMatchObject({ scenario: 'lost', creationAnswer: 'lost' });
    const found = await lookup({ originId: 105 });
    expect(found.json).toMatchObject({ status: 'CREATED', details: { originId: 105 } });
  });

  it('[lost] combines with [fail]', async () => {
    await expect(create(106, '[fail][lost]')).rejects.toThrow();
    expect(await statusAfter(106, 10_000)).toBe('FAILED');
    expect(sandbox.bank.ledger.entry(106)?.scenario).toBe('fail+lost');
  });

  it('finds a movement by networkId and by debinId, and refuses anything but exactly one lookup value', async () => {
    const created = (await create(107)).json;
    const { networkId, debinId } = sandbox.bank.ledger.entry(107) ?? {};
    expect(networkId).toBe(created.details.networkId);
    expect((await lookup({ networkId })).json.id).toBe(created.id);
    expect((await lookup({ debinId })).json.id).toBe(created.id);
    expect((await lookup({ networkId: `${networkId}0` })).status).toBe(404);

    for (const body of [{}, { originId: 107, networkId }, { networkId, debinId }]) {
      const refused = await lookup(body);
      expect(refused.status).toBe(400);
      expect(refused.json.code).toBe('INVALID_LOOKUP');
    }
    expect((await lookup({ originId: 0 })).json.code).toBe('INVALID_ORIGIN_ID');
    expect((await lookup({ originId: 107, getRawData: 'yes' })).json.code).toBe('INVALID_TYPE');
  });

  it('answers get-movement with getRawData: true in the network format', async () => {
    const created = (await create(108, 'rent may')).json;
    sandbox.clock.advance(9_000);
    const raw = await lookup({ originId: 108, getRawData: true });
    expect(raw.status).toBe(200);
    expect(raw.json).toEqual({
      formato: 'COELSA-TRF-1',
      red: 'COELSA',
      transferencia: {
        id_coelsa: created.details.networkId,
        id_debin: expect.stringMatching(/^DEBIN/),
        id_origen: '108',
        estado: { codigo: 'ACREDITADA', descripcion: expect.any(String) },
        fecha_alta: '2024-05-01T12:00:00Z',
        fecha_fin: '2024-05-01T12:00:08Z',
        importe: { moneda: '032', monto: '1234.50' },
        concepto: 'VAR',
        referencia: 'rent may',
        ordenante: { cuit: FROM_CUIT, cbu: FROM_CVU, titular: expect.any(String) },
        beneficiario: { cuit: TO_CUIL, cbu: TO_CBU, titular: expect.any(String) },
      },
    });
    expect(sandbox.bank.ledger.entry(108)?.lookups).toEqual([
      { at: '2024-05-01T12:00:09.000Z', answered: 'COMPLETED' },
    ]);
  });

  it('keeps the timings a movement was created with when the timings change later', async () => {
    await create(109);
    sandbox.bank.configure({ timings: { createdMs: 60_000, inProgressMs: 60_000 } });
    await create(110);
    expect(await statusAfter(109, 10_000)).toBe('COMPLETED');
    expect((await lookup({ originId: 110 })).json.status).toBe('CREATED');
    sandbox.bank.configure({ timings: { createdMs: 2_000, inProgressMs: 6_000 } });
  });

  it('answers a lookup 404 until the registration lag has passed, and records it', async () => {
    sandbox.bank.configure({ registrationLagMs: 3_000 });
    try {
      await create(111);
      sandbox.clock.advance(2_999);
      const early = await lookup({ originId: 111 });
      expect(early.status).toBe(404);
      expect(early.json.code).toBe('MOVEMENT_NOT_FOUND');
      sandbox.clock.advance(1);
      expect((await lookup({ originId: 111 })).status).toBe(200);
      expect(sandbox.bank.ledger.entry(111)?.lookups.map((record) => record.answered)).toEqual([
        'NOT_FOUND',
        'IN_PROGRESS',
      ]);
      expect(sandbox.bank.counters().requests['get-movement']).toEqual({ 'not-registered-yet': 1, found: 1 });
    } finally {
      sandbox.bank.configure({ registrationLagMs: 0 });
    }
  });

  it('can answer a final state at creation when the timings are zero', async () => {
    sandbox.bank.configure({ timings: { createdMs: 0, inProgressMs: 0 } });
    try {
      const created = (await create(112)).json;
      expect(created.status).toBe('COMPLETED');
      expect(created.details.completedDatetime).toBe(created.details.postingDatetime);
    } finally {
      sandbox.bank.configure({ timings: { createdMs: 2_000, inProgressMs: 6_000 } });
    }
  });
});
