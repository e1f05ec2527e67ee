import type { SandboxBank } from '@giro/sandbox-bank';
import { TransferLimitError } from '@giro/transfer-module';
import { type ManualClock, sampleTransferRequest, sweepUntilFinal } from '@giro/transfer-module/testing';
import { describeOnEachEngine } from './support/engines';
import { type Giro, giroOptions, manualClock, startGiro, startTestSandbox } from './support/giro-harness';
import { startTestReconciler, type TestReconciler, transferRequest } from './support/reconciler-harness';

// Limits per source account against the sandbox bank: a transfer that would pass one is refused naming the limit
// and what remains, and neither stored nor sent (the sandbox's ledger stays empty); a FAILED transfer gives its
// share back, so the next one fits. Then the admin API's 422.

describeOnEachEngine('limits per source account', (engine) => {
  let clock: ManualClock;
  let bank: SandboxBank;
  let giro: Giro;
  const own = sampleTransferRequest().from;
  const request = (originId: number, amount: string, description = 'rent') =>
    sampleTransferRequest({ originId, amount, description });

  beforeEach(async () => {
    clock = manualClock();
    bank = await startTestSandbox(clock);
    giro = await startGiro(
      await giroOptions(bank, clock, {
        databaseUrl: await engine.createDatabaseUrl(),
        sourceAccounts: [{ address: own.address, ownerPersonId: own.owner.personId }],
        limits: { default: { perTransfer: '5000.00', dailyAmount: '10000.00', dailyCount: 3 } },
      }),
    );
  });
  afterEach(async () => {
    await giro.close();
    await bank.close();
  });

  const refusal = async (transfer: unknown) => {
    const error = await giro.transfers.requestTransfer(transfer).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TransferLimitError);
    return (error as TransferLimitError).violations;
  };

  it('refuses what would pass a limit, storing and sending nothing', async () => {
    expect(await refusal(request(701, '5000.01'))).toEqual([
      {
        field: 'body.amount',
        rule: 'per_transfer',
        params: { address: own.address, limit: '5000.00', amount: '5000.01' },
        message: `5000.01 would pass the per-transfer maximum of ${own.address}, 5000.00`,
      },
    ]);
    expect(bank.ledger.size).toBe(0);
    expect((await giro.movements.listMovements({}, { limit: 10 })).items).toEqual([]);

    await giro.transfers.requestTransfer(request(702, '5000.00'));
    await giro.transfers.requestTransfer(request(703, '4000.00'));
    expect(await refusal(request(704, '1000.01'))).toEqual([
      {
        field: 'body.amount',
        rule: 'daily_amount',
        params: { address: own.address, limit: '10000.00', remaining: '1000.00' },
        message: `the daily amount of ${own.address} would pass 10000.00: 1000.00 remain today`,
      },
    ]);
    await giro.transfers.requestTransfer(request(705, '1000.00'));
    expect(await refusal(request(706, '0.01'))).toEqual([
      expect.objectContaining({ rule: 'daily_amount', message: expect.stringMatching(/: 0\.00 remain today$/) }),
    ]);
    expect(
      bank.ledger
        .page()
        .entries.map((entry) => entry.originId)
        .sort(),
    ).toEqual([702, 703, 705]);
  });

  it('gives a FAILED transfer’s share back, so the next one fits; a replay counts nothing', async () => {
    const failing = await giro.transfers.requestTransfer(request(711, '5000.00', 'rent [fail]'));
    const replay = await giro.transfers.requestTransfer(request(711, '5000.00', 'rent [fail]'));
    expect(replay.created).toBe(false);
    await giro.transfers.requestTransfer(request(712, '5000.00'));
    expect(await refusal(request(713, '2000.00'))).toEqual([expect.objectContaining({ rule: 'daily_amount' })]);
    expect(bank.ledger.entry(713)).toBeUndefined();

    await sweepUntilFinal(giro, clock);
    expect((await giro.movements.getMovement(failing.movement.originId)).status).toBe('FAILED');
    const next = await giro.transfers.requestTransfer(request(713, '2000.00'));
    expect(next.created).toBe(true);
    expect(bank.ledger.entry(713)).toBeDefined();
    // A business rejection at creation is FAILED at once, and frees its share at once: the count allows 3.
    const rejected = await giro.transfers.requestTransfer(request(714, '100.00', 'rent [reject]'));
    expect(rejected.movement.status).toBe('FAILED');
    expect((await giro.transfers.requestTransfer(request(715, '100.00'))).created).toBe(true);
    expect(await refusal(request(716, '1.00'))).toEqual([
      {
        field: 'from.address',
        rule: 'daily_count',
        params: { address: own.address, limit: 3, remaining: 0 },
        message: `the daily count of ${own.address} would pass 3 transfers: 0 remain today`,
      },
    ]);
  });
});

describe('limits per source account over the admin API', () => {
  let r: TestReconciler;
  const from = transferRequest().from.address;
  beforeAll(async () => {
    r = await startTestReconciler({ limits: { accounts: { [from]: { dailyAmount: '100.00' } } } });
  });
  afterAll(() => r.close());

  it('answers 422 with the violations shape of a 400, naming the limit and what remains; nothing sent', async () => {
    const first = await r.request('POST', '/admin/transfers', {
      body: transferRequest({ originId: 4001, amount: 80 }),
    });
    expect(first.status).toBe(201);
    const refused = await r.request('POST', '/admin/transfers', {
      body: transferRequest({ originId: 4002, amount: '20.01' }),
    });
    expect(refused.status).toBe(422);
    expect(refused.json).toEqual({
      statusCode: 422,
      code: 'LIMIT_EXCEEDED',
      error: 'Unprocessable Entity',
      errorName: 'TransferLimitError',
      message: `body.amount the daily amount of ${from} would pass 100.00: 20.00 remain today`,
      violations: [
        {
          field: 'body.amount',
          rule: 'daily_amount',
          params: { address: from, limit: '100.00', remaining: '20.00' },
          message: `the daily amount of ${from} would pass 100.00: 20.00 remain today`,
        },
      ],
    });
    expect(r.bank.ledger.entry(4002)).toBeUndefined();
    expect((await r.request('GET', '/admin/transfers/4002')).status).toBe(404);
    expect(
      (await r.request('POST', '/admin/transfers', { body: transferRequest({ originId: 4003, amount: 20 }) })).status,
    ).toBe(201);
  });

  it('documents the 422 of POST /admin/transfers in OpenAPI', async () => {
    const docs = await r.request('GET', '/docs-json', { token: null });
    expect(docs.json.paths['/admin/transfers'].post.responses['422']).toEqual({
      description: expect.stringMatching(/limit of its source account/),
    });
  });
});
