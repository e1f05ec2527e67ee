import {
  GET_MOVEMENT_PATH,
  startTestSandbox,
  type TestSandbox,
  TRANSFER_PATH,
  transferRequest,
} from '../testing/test-sandbox';
import { MAX_SEED_COUNT } from './seed-movements';

describe('POST /__sandbox/seed', () => {
  let sandbox: TestSandbox;
  beforeAll(async () => {
    sandbox = await startTestSandbox({
      config: {
        timings: { createdMs: 1_000, inProgressMs: 10_000, delayedMs: 60_000 },
        polling: { minIntervalMs: 5_000, delayedMinIntervalMs: 600_000 },
      },
    });
  });
  afterAll(() => sandbox.bank.close());
  beforeEach(() => sandbox.bank.reset());

  const { originId: _, ...template } = transferRequest(1, 'seeded');
  const seed = (body: unknown) => sandbox.client.send('POST', '/__sandbox/seed', JSON.stringify(body));

  it('registers consecutive originIds created now, which lookups find like any other movement', async () => {
    const answer = await seed({ firstOriginId: 500, count: 3, transfer: template });
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({ seeded: 3, firstOriginId: 500, lastOriginId: 502 });
    expect(sandbox.bank.ledger.size).toBe(3);
    expect(sandbox.bank.counters().processed).toBe(3);
    expect(sandbox.bank.ledger.entry(501)).toMatchObject({ originId: 501, scenario: 'normal', status: 'CREATED' });
    expect(sandbox.bank.ledger.entry(503)).toBeUndefined();

    sandbox.clock.advance(1_000);
    const lookup = await sandbox.client.post(GET_MOVEMENT_PATH, { originId: 502 });
    expect(lookup.json).toMatchObject({ status: 'IN_PROGRESS', details: { originId: 502, amount: 1234.5 } });
    // No answer was delivered before: the first lookup is never too early; the next one is timed from it.
    expect(sandbox.bank.counters().pollsTooEarly).toBe(0);
    sandbox.clock.advance(10);
    await sandbox.client.post(GET_MOVEMENT_PATH, { originId: 502 });
    expect(sandbox.bank.counters().pollsTooEarly).toBe(1);
  });

  it('gives seeded movements the scenario of the description and the timings configured now', async () => {
    sandbox.bank.configure({ timings: { createdMs: 0, inProgressMs: 200 } });
    try {
      await seed({
        firstOriginId: 10,
        count: 2,
        transfer: { ...template, body: { ...template.body, description: 'x [fail]' } },
      });
    } finally {
      sandbox.bank.configure({ timings: { createdMs: 1_000, inProgressMs: 10_000 } });
    }
    sandbox.clock.advance(200);
    expect(sandbox.bank.ledger.entry(11)).toMatchObject({ scenario: 'fail', status: 'FAILED' });
  });

  it.each([
    ['count', { firstOriginId: 1, count: 0, transfer: template }],
    ['count', { firstOriginId: 1, count: MAX_SEED_COUNT + 1, transfer: template }],
    ['count', { firstOriginId: Number.MAX_SAFE_INTEGER, count: 2, transfer: template }],
    ['firstOriginId', { firstOriginId: 1.5, count: 1, transfer: template }],
    ['transfer', { firstOriginId: 1, count: 1 }],
    [
      'transfer.to.address',
      { firstOriginId: 1, count: 1, transfer: { ...template, to: { ...template.to, address: '123' } } },
    ],
    [
      'transfer.body.description',
      { firstOriginId: 1, count: 1, transfer: { ...template, body: { ...template.body, description: '[reject]' } } },
    ],
  ])('refuses a bad %s with 400, naming it, and registers nothing', async (field, body) => {
    const answer = await seed(body);
    expect(answer.status).toBe(400);
    expect(answer.json.code).toBe('INVALID_SEED');
    expect(answer.json.violations).toEqual([expect.objectContaining({ field })]);
    expect(sandbox.bank.ledger.size).toBe(0);
  });

  it('refuses a range that holds an originId already processed, registering none of it', async () => {
    await sandbox.client.post(TRANSFER_PATH, transferRequest(7));
    const answer = await seed({ firstOriginId: 1, count: 10, transfer: template });
    expect(answer.status).toBe(409);
    expect(answer.json.message).toMatch(/originId 7 was already processed/);
    expect(sandbox.bank.ledger.size).toBe(1);
    expect(sandbox.bank.counters().processedTwice).toBe(0);
  });
});
