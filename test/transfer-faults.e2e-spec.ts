import { DUPLICATE_ORIGIN_ID, type FaultSettings, type SandboxBank } from '@giro/sandbox-bank';
import { type TransferRequestWire } from '@giro/transfer-module';
import { BankClient } from '@giro/transfer-module/bank';
import { type ManualClock } from '@giro/transfer-module/testing';
import {
  allMovements,
  expectBankSawTheContract,
  expectNoRepeatedTransition,
  expectOneCancellationPerFailed,
} from './support/contract-checks';
import { describeOnEachEngine } from './support/engines';
import {
  type Giro,
  giroOptions,
  manualClock,
  START,
  sandboxBankOptions,
  startGiro,
  startTestSandbox,
  sweepUntilFinal,
  transferRequest,
} from './support/giro-harness';

// Every fault the sandbox can inject, on the creation and on a lookup, ends in the right final state with
// the contract intact; 409s are read as docs/bank-api.md#repeated-originids says; and a chaotic mix of everything
// settles too.

type FaultRate = keyof Omit<FaultSettings, 'latencyMs' | 'retryAfterSeconds'>;

/** Each fault, whether the bank processed the request it spoiled, and what giro saw. */
const FAULTS: { rate: FaultRate; processed: boolean; creationError: RegExp }[] = [
  { rate: 'serverErrorRate', processed: false, creationError: /HTTP 500/ },
  { rate: 'resetBeforeRate', processed: false, creationError: /outcome unknown/ },
  { rate: 'hangRate', processed: false, creationError: /outcome unknown/ },
  { rate: 'rateLimitRate', processed: false, creationError: /HTTP 429/ },
  { rate: 'resetAfterRate', processed: true, creationError: /outcome unknown/ },
  { rate: 'malformedRate', processed: true, creationError: /BankMalformedAnswerError/ },
];

describeOnEachEngine('giro against a faulty bank', (engine) => {
  let clock: ManualClock;
  let bank: SandboxBank;
  let giro: Giro;

  async function start(bankOverrides = {}) {
    giro = await startGiro(
      await giroOptions(bank, clock, {
        databaseUrl: await engine.createDatabaseUrl(),
        bank: await sandboxBankOptions(bank.url, bankOverrides),
      }),
    );
  }

  beforeEach(async () => {
    clock = manualClock();
    bank = await startTestSandbox(clock);
  });
  afterEach(async () => {
    await giro?.close();
    await bank.close();
  });

  it.each(FAULTS)('$rate on the creation and on a lookup: COMPLETED, each processed once', async (fault) => {
    await start();
    bank.configure({ faults: { [fault.rate]: 1 } });
    const spoiled = (await giro.transfers.requestTransfer(transferRequest('spoiled creation'))).movement;
    bank.configure({ faults: { [fault.rate]: 0 } });
    // Never final on a fault; the send stays counted unless the bank certainly did not process it (429).
    expect(spoiled).toMatchObject({
      status: 'PENDING',
      attempts: fault.rate === 'rateLimitRate' ? 0 : 1,
      lastError: expect.stringMatching(fault.creationError),
    });
    expect(bank.ledger.size).toBe(fault.processed ? 1 : 0);

    const healthy = (await giro.transfers.requestTransfer(transferRequest('spoiled lookup'))).movement;
    clock.advance(200);
    bank.configure({ faults: { [fault.rate]: 1 } });
    const report = await giro.reconcile.sweep();
    expect(report.errors).toBeGreaterThanOrEqual(1);
    expect((await giro.movements.getMovement(healthy.originId)).status).toBe('CREATED'); // no answer: unchanged
    bank.configure({ faults: { [fault.rate]: 0 } });

    await sweepUntilFinal(giro, clock);

    for (const movement of await allMovements(giro.movements)) {
      expect(movement.status).toBe('COMPLETED');
      expectNoRepeatedTransition(movement);
    }
    const entry = bank.ledger.entry(spoiled.originId);
    // A processed request is looked up, never sent again; one that was not is sent again, same originId.
    expect(entry?.duplicateRequests).toBe(0);
    if (fault.processed) expect(entry?.lookups[0].answered).not.toBe('NOT_FOUND');
    if (fault.rate === 'rateLimitRate') {
      // Retry-After (1 s) was honoured before sending again.
      expect(Date.parse(entry?.createdAt as string)).toBeGreaterThanOrEqual(START + 1_000);
    }
    expect(bank.counters().processed).toBe(2);
    await expectBankSawTheContract(bank, giro.movements);
  });

  it('reads a 409 on a first send as a business rejection, unless its code is a duplicate code (then looks it up, and never takes another transfer’s money for its own)', async () => {
    await start();
    bank.configure({ duplicateMode: 'conflict' });
    // Another system already used these originIds at the bank.
    const other = new BankClient({ ...(await sandboxBankOptions(bank.url)), clock });
    for (const originId of [71, 72]) {
      await other.createTransferRequest({
        ...transferRequest('elsewhere'),
        originId,
        body: { ...transferRequest('x').body, amount: 10 },
      } as TransferRequestWire);
    }
    await other.close();

    const rejected = await giro.transfers.requestTransfer(transferRequest('rent', { originId: 71 }));
    expect(rejected.movement).toMatchObject({
      status: 'FAILED',
      cancellation: { reason: { code: DUPLICATE_ORIGIN_ID } },
    });
    await giro.close();

    // With the code configured as a duplicate code, the same answer means "the bank has it": look it up.
    await start({ duplicateCodes: [DUPLICATE_ORIGIN_ID] });
    const duplicate = await giro.transfers.requestTransfer(transferRequest('rent', { originId: 72 }));
    expect(duplicate.movement).toMatchObject({
      status: 'PENDING',
      lastError: expect.stringMatching(/resolving it by lookup/),
    });
    // The bank's movement under originId 72 is the other system's (10.00, not giro's 1234.50): whatever
    // status it has, it never makes giro's transfer final; each lookup is recorded and raised as an anomaly.
    for (let sweep = 0; sweep < 20; sweep += 1) {
      clock.advance(200);
      await giro.reconcile.sweep();
    }
    const stored = await giro.movements.getMovement(72);
    expect(stored.status).toBe('PENDING');
    expect(stored.lastError).toMatch(/the bank's answer names the amount 10\.00, the transfer's is 1234\.50/);
    expect(stored.anomalies.length).toBeGreaterThan(0);
    expect(bank.counters()).toMatchObject({ processedTwice: 0, pollsTooEarly: 0 });
  });

  it('reads a 409 after a send that may have reached the bank as a duplicate, and looks it up', async () => {
    await start();
    bank.configure({ duplicateMode: 'conflict', registrationLagMs: 400, faults: { resetAfterRate: 1 } });
    const { movement } = await giro.transfers.requestTransfer(transferRequest('rent'));
    bank.configure({ faults: { resetAfterRate: 0 } });

    await sweepUntilFinal(giro, clock);

    const stored = await giro.movements.getMovement(movement.originId);
    expect(stored).toMatchObject({ status: 'COMPLETED', cancellation: null });
    expect(bank.ledger.entry(movement.originId)?.duplicateRequests).toBeGreaterThanOrEqual(1); // the 409 was seen
    await expectBankSawTheContract(bank, giro.movements);
  });

  it('settles a chaotic mix of scenarios and faults with the contract intact', async () => {
    await start();
    bank.configure({
      seed: 2024,
      registrationLagMs: 150,
      faults: {
        serverErrorRate: 0.08,
        resetBeforeRate: 0.05,
        resetAfterRate: 0.06,
        hangRate: 0.02,
        malformedRate: 0.06,
        rateLimitRate: 0.05,
      },
    });
    const scenarios = ['rent', 'rent [fail]', 'rent [delay]', 'rent [reject]', 'rent [lost]', 'rent [lost] [fail]'];
    const expected = new Map<number, string>();
    for (let i = 0; i < 24; i++) {
      const description = scenarios[i % scenarios.length];
      const { movement } = await giro.transfers.requestTransfer(transferRequest(description));
      expected.set(movement.originId, /\[(fail|reject)\]/.test(description) ? 'FAILED' : 'COMPLETED');
    }

    const totals = await sweepUntilFinal(giro, clock, { stepMs: 50, maxSteps: 800 });

    expect(totals.errors).toBeGreaterThan(0); // the faults did fire
    for (const movement of await allMovements(giro.movements)) {
      expect({ originId: movement.originId, status: movement.status }).toEqual({
        originId: movement.originId,
        status: expected.get(movement.originId),
      });
      expectNoRepeatedTransition(movement);
    }
    await expectBankSawTheContract(bank, giro.movements);
    await expectOneCancellationPerFailed(giro);
  });
});
