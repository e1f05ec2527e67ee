import {
  GET_MOVEMENT_PATH,
  startTestSandbox,
  type TestSandbox,
  TRANSFER_PATH,
  transferRequest,
} from './testing/test-sandbox';

const NO_FAULTS = {
  latencyMs: 0,
  serverErrorRate: 0,
  resetBeforeRate: 0,
  resetAfterRate: 0,
  hangRate: 0,
  malformedRate: 0,
  rateLimitRate: 0,
};

describe('sandbox bank: faults', () => {
  let sandbox: TestSandbox;
  beforeAll(async () => {
    sandbox = await startTestSandbox();
  });
  afterAll(() => sandbox.bank.close());
  beforeEach(() => {
    sandbox.bank.configure({ faults: NO_FAULTS });
    sandbox.bank.reset();
  });

  const create = (originId: number, timeoutMs?: number) =>
    sandbox.client.post(TRANSFER_PATH, transferRequest(originId), { timeoutMs });
  const setFaults = (faults: object) =>
    sandbox.client.send('POST', '/__sandbox/config', JSON.stringify({ faults }), {
      'content-type': 'application/json',
    });

  it('answers 500 without processing', async () => {
    sandbox.bank.configure({ faults: { serverErrorRate: 1 } });
    const response = await create(401);
    expect(response.status).toBe(500);
    expect(response.json.code).toBe('INTERNAL_ERROR');
    expect(sandbox.bank.ledger.size).toBe(0);
    expect(sandbox.bank.counters().faults['server-error']).toBe(1);
  });

  it('answers 429 with Retry-After without processing', async () => {
    sandbox.bank.configure({ faults: { rateLimitRate: 1, retryAfterSeconds: 7 } });
    const response = await create(402);
    expect(response.status).toBe(429);
    expect(response.headers['retry-after']).toBe('7');
    expect(sandbox.bank.ledger.size).toBe(0);
    expect(sandbox.bank.counters().requests['transfer-request']).toEqual({ 'rate-limited': 1 });
  });

  it('resets the connection before processing', async () => {
    sandbox.bank.configure({ faults: { resetBeforeRate: 1 } });
    await expect(create(403)).rejects.toThrow(/socket hang up|ECONNRESET/);
    expect(sandbox.bank.ledger.size).toBe(0);
    expect(sandbox.bank.counters().faults['reset-before']).toBe(1);
  });

  it('resets the connection after processing: the movement exists', async () => {
    sandbox.bank.configure({ faults: { resetAfterRate: 1 } });
    await expect(create(404)).rejects.toThrow(/socket hang up|ECONNRESET/);
    expect(sandbox.bank.ledger.entry(404)).toMatchObject({ creationAnswer: 'reset-after', status: 'CREATED' });
    expect(sandbox.bank.counters().faults['reset-after']).toBe(1);
  });

  it('hangs without processing until the client gives up', async () => {
    sandbox.bank.configure({ faults: { hangRate: 1 } });
    await expect(create(405, 300)).rejects.toThrow(/no answer within 300 ms/);
    expect(sandbox.bank.ledger.size).toBe(0);
    expect(sandbox.bank.counters().faults.hang).toBe(1);
  });

  it('answers 200 with an unparseable body after processing', async () => {
    sandbox.bank.configure({ faults: { malformedRate: 1 } });
    const response = await create(406);
    expect(response.status).toBe(200);
    expect(() => JSON.parse(response.text)).toThrow();
    expect(response.text.length).toBeGreaterThan(0);
    expect(sandbox.bank.ledger.entry(406)?.creationAnswer).toBe('malformed');
  });

  it('marks a lookup whose answer was spoiled by a fault in the ledger', async () => {
    await create(407);
    sandbox.bank.configure({ faults: { malformedRate: 1 } });
    const response = await sandbox.client.post(GET_MOVEMENT_PATH, { originId: 407 });
    expect(response.json).toBeUndefined();
    expect(sandbox.bank.ledger.entry(407)?.lookups).toEqual([
      { at: expect.any(String), answered: 'CREATED', fault: 'malformed' },
    ]);
  });

  it('adds latency to every API answer', async () => {
    sandbox.bank.configure({ faults: { latencyMs: 200 } });
    const started = performance.now();
    expect((await create(408)).status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(190);
    expect(sandbox.bank.counters().faults.latency).toBe(1);
  });

  it('draws the same faults from the same seed, and the rates hold over many requests', async () => {
    const run = async () => {
      await setFaults({ serverErrorRate: 0.3, rateLimitRate: 0.2 });
      await sandbox.client.send('POST', '/__sandbox/config', JSON.stringify({ seed: 42 }), {
        'content-type': 'application/json',
      });
      sandbox.bank.reset();
      const statuses: number[] = [];
      for (let originId = 1000; originId < 1100; originId++) statuses.push((await create(originId)).status);
      return statuses;
    };
    const first = await run();
    const second = await run();
    expect(second).toEqual(first);
    const count = (status: number) => first.filter((value) => value === status).length;
    expect(count(500)).toBeGreaterThan(15);
    expect(count(429)).toBeGreaterThan(8);
    expect(count(200)).toBeGreaterThan(30);
    expect(sandbox.bank.ledger.size).toBe(count(200));
  });

  it('refuses fault rates that add up to more than 1, changing nothing', async () => {
    const response = await setFaults({ serverErrorRate: 0.6, hangRate: 0.6 });
    expect(response.status).toBe(400);
    expect(response.json.violations).toEqual([expect.objectContaining({ field: 'faults', rule: 'rate-sum' })]);
    expect(sandbox.bank.config().faults.hangRate).toBe(0);
  });
});
