import { startTestSandbox, type TestSandbox, TRANSFER_PATH, transferRequest } from './testing/test-sandbox';

describe('sandbox bank: a repeated originId is never processed twice', () => {
  let sandbox: TestSandbox;
  beforeAll(async () => {
    sandbox = await startTestSandbox();
  });
  afterAll(() => sandbox.bank.close());
  beforeEach(() => sandbox.bank.reset());

  const create = (originId: number, description?: string) =>
    sandbox.client.post(TRANSFER_PATH, transferRequest(originId, description));

  it('return-existing: answers the original movement, in its current state, with a warning', async () => {
    sandbox.bank.configure({ duplicateMode: 'return-existing' });
    const original = (await create(501)).json;
    sandbox.clock.advance(3_000);
    const repeated = await create(501, 'another description [fail]');
    expect(repeated.status).toBe(200);
    expect(repeated.json).toEqual({
      ...original,
      status: 'IN_PROGRESS',
      warning: expect.stringMatching(/^DUPLICATE_ORIGIN_ID/),
    });

    expect(sandbox.bank.ledger.size).toBe(1);
    expect(sandbox.bank.ledger.entry(501)).toMatchObject({ scenario: 'normal', duplicateRequests: 1 });
    expect(sandbox.bank.counters()).toMatchObject({ processed: 1, duplicates: 1, processedTwice: 0 });
  });

  it('conflict: answers 409 DUPLICATE_ORIGIN_ID', async () => {
    sandbox.bank.configure({ duplicateMode: 'conflict' });
    try {
      await create(502);
      const repeated = await create(502);
      expect(repeated.status).toBe(409);
      expect(repeated.json).toEqual({ code: 'DUPLICATE_ORIGIN_ID', message: expect.stringContaining('502') });
      expect(sandbox.bank.counters()).toMatchObject({ processed: 1, duplicates: 1, processedTwice: 0 });
    } finally {
      sandbox.bank.configure({ duplicateMode: 'return-existing' });
    }
  });

  it('processes one of many concurrent requests for the same originId, in both modes', async () => {
    for (const duplicateMode of ['return-existing', 'conflict'] as const) {
      sandbox.bank.reset();
      sandbox.bank.configure({ duplicateMode });
      const answers = await Promise.all(Array.from({ length: 20 }, () => create(503)));
      const statuses = answers.map((answer) => answer.status).sort();
      expect(statuses).toEqual(duplicateMode === 'conflict' ? [200, ...Array(19).fill(409)] : Array(20).fill(200));
      expect(new Set(answers.filter((a) => a.status === 200).map((answer) => answer.json.id)).size).toBe(1);
      expect(sandbox.bank.counters()).toMatchObject({ processed: 1, duplicates: 19, processedTwice: 0 });
    }
    sandbox.bank.configure({ duplicateMode: 'return-existing' });
  });

  it('answers a repeat after a lost creation answer instead of processing it again', async () => {
    await expect(create(504, '[lost]')).rejects.toThrow();
    const retry = await create(504, '[lost]');
    expect(retry.status).toBe(200);
    expect(retry.json.warning).toMatch(/DUPLICATE_ORIGIN_ID/);
    expect(sandbox.bank.counters()).toMatchObject({ processed: 1, processedTwice: 0 });
  });
});
