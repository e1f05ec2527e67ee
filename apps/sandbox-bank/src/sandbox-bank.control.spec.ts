import { SandboxConfigError } from './sandbox-bank';
import {
  FROM_CVU,
  GET_MOVEMENT_PATH,
  startTestSandbox,
  type TestSandbox,
  TRANSFER_PATH,
  transferRequest,
} from './testing/test-sandbox';

describe('sandbox bank: inspection and control surface', () => {
  let sandbox: TestSandbox;
  beforeAll(async () => {
    sandbox = await startTestSandbox({
      config: {
        timings: { createdMs: 2_000, inProgressMs: 20_000, delayedMs: 3_600_000 },
        polling: { minIntervalMs: 5_000, delayedMinIntervalMs: 600_000 },
      },
    });
  });
  afterAll(() => sandbox.bank.close());
  beforeEach(() => sandbox.bank.reset());

  const create = (originId: number, description?: string) =>
    sandbox.client.post(TRANSFER_PATH, transferRequest(originId, description));
  const lookupAfter = async (originId: number, ms: number) => {
    sandbox.clock.advance(ms);
    return sandbox.client.post(GET_MOVEMENT_PATH, { originId });
  };
  const tooEarly = () => sandbox.bank.counters().pollsTooEarly;

  describe('pollsTooEarly', () => {
    it('counts lookups sooner than 5 s after an answer reporting CREATED or IN_PROGRESS', async () => {
      await create(701);
      await lookupAfter(701, 4_999);
      expect(tooEarly()).toBe(1);
      await lookupAfter(701, 5_000);
      expect(tooEarly()).toBe(1);
      await lookupAfter(701, 1_000);
      expect(tooEarly()).toBe(2);
    });

    it('counts lookups at or before 10 min after an answer reporting DELAYED (strictly longer is required)', async () => {
      await create(702, '[delay]');
      expect((await lookupAfter(702, 22_000)).json.status).toBe('DELAYED');
      await lookupAfter(702, 600_000);
      expect(tooEarly()).toBe(1);
      await lookupAfter(702, 600_001);
      expect(tooEarly()).toBe(1);
    });

    it('times the next lookup from an answer the client received, not from one lost by a fault', async () => {
      await create(703);
      sandbox.bank.configure({ faults: { resetAfterRate: 1 } });
      await expect(lookupAfter(703, 5_000)).rejects.toThrow();
      sandbox.bank.configure({ faults: { resetAfterRate: 0 } });
      await lookupAfter(703, 100);
      expect(tooEarly()).toBe(0);
    });

    it('does not count the first lookup after a lost creation answer, and counts polls of a final movement apart', async () => {
      await expect(create(704, '[lost]')).rejects.toThrow();
      await lookupAfter(704, 10);
      expect(tooEarly()).toBe(0);
      expect((await lookupAfter(704, 30_000)).json.status).toBe('COMPLETED');
      await lookupAfter(704, 1);
      expect(sandbox.bank.counters()).toMatchObject({ pollsTooEarly: 0, pollsAfterFinal: 1 });
    });

    it('uses the configured intervals, so scaled-down runs can be audited', async () => {
      sandbox.bank.configure({ polling: { minIntervalMs: 50 } });
      try {
        await create(705);
        await lookupAfter(705, 50);
        expect(tooEarly()).toBe(0);
        await lookupAfter(705, 49);
        expect(tooEarly()).toBe(1);
      } finally {
        sandbox.bank.configure({ polling: { minIntervalMs: 5_000 } });
      }
    });
  });

  describe('GET /__sandbox/ledger', () => {
    it('filters by originId and records every lookup with its time and the state answered', async () => {
      await create(710);
      await lookupAfter(710, 6_000);
      const ledger = await sandbox.client.getJson('/__sandbox/ledger?originId=710');
      expect(ledger.entries).toEqual([sandbox.bank.ledger.entry(710)]);
      expect(ledger.entries[0]).toMatchObject({
        originId: 710,
        scenario: 'normal',
        status: 'IN_PROGRESS',
        creationAnswer: 'delivered',
        lookups: [{ at: expect.any(String), answered: 'IN_PROGRESS' }],
      });
      expect((await sandbox.client.send('GET', '/__sandbox/ledger?originId=711')).status).toBe(404);
    });

    it('pages through many entries in processing order', async () => {
      for (let originId = 1; originId <= 25; originId++) await create(originId);
      const first = await sandbox.client.getJson('/__sandbox/ledger?limit=10');
      expect(first.total).toBe(25);
      expect(first.entries.map((entry: { originId: number }) => entry.originId)).toEqual([
        1, 2, 3, 4, 5, 6, 7, 8, 9, 10,
      ]);
      const last = await sandbox.client.getJson('/__sandbox/ledger?limit=10&cursor=20');
      expect(last.entries).toHaveLength(5);
      expect(last.nextCursor).toBeUndefined();
      expect(first.nextCursor).toBe(10);
      expect((await sandbox.client.send('GET', '/__sandbox/ledger?limit=0')).status).toBe(400);
    });
  });

  it("GET /__sandbox/statement writes the day's completed debits as CSV, by account, failed ones left out", async () => {
    await create(730, 'rent');
    await create(731, '[fail]');
    await create(732, 'say "hi", twice');
    const ids = (originId: number) => sandbox.bank.ledger.entry(originId)?.networkId;
    const before = await sandbox.client.send('GET', '/__sandbox/statement?date=2024-05-01');
    expect(before.text).toBe('date,amount,reference,description\r\n');
    sandbox.clock.advance(22_000);
    const statement = await sandbox.client.send('GET', `/__sandbox/statement?date=2024-05-01&account=${FROM_CVU}`);
    expect(statement.status).toBe(200);
    expect(statement.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(statement.text).toBe(
      [
        'date,amount,reference,description',
        `2024-05-01,-1234.50,${ids(730)},"rent"`,
        `2024-05-01,-1234.50,${ids(732)},"say ""hi"", twice"`,
        '',
      ].join('\r\n'),
    );
    expect((await sandbox.client.send('GET', '/__sandbox/statement?date=2024-05-02')).text).toBe(
      'date,amount,reference,description\r\n',
    );
    const otherAccount = '0'.repeat(22);
    expect(
      (await sandbox.client.send('GET', `/__sandbox/statement?date=2024-05-01&account=${otherAccount}`)).text,
    ).toBe('date,amount,reference,description\r\n');
    expect((await sandbox.client.send('GET', '/__sandbox/statement?date=01/05/2024')).status).toBe(400);
    expect((await sandbox.client.send('GET', '/__sandbox/statement?date=2024-05-01&account=12')).status).toBe(400);
  });

  it('GET /__sandbox/counters reports requests by endpoint and outcome', async () => {
    await create(720);
    await create(720);
    await sandbox.client.post(GET_MOVEMENT_PATH, { originId: 999 });
    await sandbox.client.post(TRANSFER_PATH, transferRequest(721), { token: 'wrong' });
    const counters = await sandbox.client.getJson('/__sandbox/counters');
    expect(counters).toEqual(sandbox.bank.counters());
    expect(counters).toMatchObject({
      requests: {
        'transfer-request': { created: 1, duplicate: 1, unauthorized: 1 },
        'get-movement': { 'not-found': 1 },
      },
      processed: 1,
      duplicates: 1,
      processedTwice: 0,
    });
  });

  it('GET and POST /__sandbox/config read and change the configuration', async () => {
    const changed = await sandbox.client.send(
      'POST',
      '/__sandbox/config',
      JSON.stringify({ duplicateMode: 'conflict', registrationLagMs: 100 }),
    );
    expect(changed.status).toBe(200);
    expect(await sandbox.client.getJson('/__sandbox/config')).toMatchObject({
      duplicateMode: 'conflict',
      registrationLagMs: 100,
    });
    const refused = await sandbox.client.send('POST', '/__sandbox/config', JSON.stringify({ duplicateMode: 'ignore' }));
    expect(refused.status).toBe(400);
    expect(refused.json.violations).toEqual([expect.objectContaining({ field: 'duplicateMode' })]);
    sandbox.bank.configure({ duplicateMode: 'return-existing', registrationLagMs: 0 });
  });

  it('configure() in process refuses a bad patch, changing nothing; config() is a copy', async () => {
    expect(() => sandbox.bank.configure({ faults: { hangRate: 2 } })).toThrow(SandboxConfigError);
    expect(() => sandbox.bank.configure({ faults: { hangRate: 2 } })).toThrow(
      /faults\.hangRate must be a number between 0 and 1/,
    );
    const config = sandbox.bank.config();
    config.faults.hangRate = 1;
    expect(sandbox.bank.config().faults.hangRate).toBe(0);
    await expect(startTestSandbox({ config: { timings: { createdMs: -1 } } })).rejects.toThrow(SandboxConfigError);
  });

  it('POST /__sandbox/reset forgets movements and counters; old network ids no longer resolve', async () => {
    const { networkId } = (await create(730)).json.details;
    const reset = await sandbox.client.send('POST', '/__sandbox/reset');
    expect(reset.status).toBe(200);
    expect(sandbox.bank.ledger.size).toBe(0);
    expect(sandbox.bank.counters().processed).toBe(0);
    await create(731);
    expect((await sandbox.client.post(GET_MOVEMENT_PATH, { networkId })).status).toBe(404);
  });
});
