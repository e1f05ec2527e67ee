import type { SandboxBank } from '@giro/sandbox-bank';
import {
  MovementBusyError,
  MovementNotFoundError,
  PollTooSoonError,
  TransferConflictError,
  TransferValidationError,
} from '@giro/transfer-module';
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
  POLLING,
  START,
  sandboxBankOptions,
  startGiro,
  startTestSandbox,
  sweepUntilFinal,
  transferRequest,
} from './support/giro-harness';

// giro against the sandbox bank on SQLite and Postgres: every scenario to its final state, idempotent
// requests, the same originId sent again when the bank does not know it, and the service's queries.

describeOnEachEngine('giro against the sandbox bank', (engine) => {
  let clock: ManualClock;
  let bank: SandboxBank;
  let giro: Giro;

  beforeEach(async () => {
    clock = manualClock();
    bank = await startTestSandbox(clock);
    giro = await startGiro(await giroOptions(bank, clock, { databaseUrl: await engine.createDatabaseUrl() }));
  });
  afterEach(async () => {
    await giro.close();
    await bank.close();
  });

  it('brings every scenario to its final state: none, [fail], [delay], [reject], [lost]', async () => {
    const cases = {
      plain: { description: 'rent', final: 'COMPLETED' },
      fail: { description: 'rent [fail]', final: 'FAILED' },
      delay: { description: 'rent [delay]', final: 'COMPLETED' },
      reject: { description: 'rent [reject]', final: 'FAILED' },
      lost: { description: 'rent [lost]', final: 'COMPLETED' },
      lostFail: { description: 'rent [lost] [fail]', final: 'FAILED' },
      lostDelay: { description: 'rent [lost] [delay]', final: 'COMPLETED' },
    } as const;
    const originIds: Record<string, number> = {};
    const first: Record<string, { status: string; attempts: number }> = {};
    for (const [name, { description }] of Object.entries(cases)) {
      const { movement, created } = await giro.transfers.requestTransfer(transferRequest(description));
      expect(created).toBe(true);
      originIds[name] = movement.originId;
      first[name] = { status: movement.status, attempts: movement.attempts };
    }
    expect(first).toEqual({
      plain: { status: 'CREATED', attempts: 1 },
      fail: { status: 'CREATED', attempts: 1 },
      delay: { status: 'CREATED', attempts: 1 },
      reject: { status: 'FAILED', attempts: 1 }, // a business rejection: final at once
      lost: { status: 'PENDING', attempts: 1 }, // the answer was lost: unknown, never guessed
      lostFail: { status: 'PENDING', attempts: 1 },
      lostDelay: { status: 'PENDING', attempts: 1 },
    });

    await sweepUntilFinal(giro, clock);

    for (const [name, { final }] of Object.entries(cases)) {
      const movement = await giro.movements.getMovement(originIds[name]);
      expect({ name, status: movement.status }).toEqual({ name, status: final });
      expectNoRepeatedTransition(movement);
    }
    const delayed = await giro.movements.getMovement(originIds.delay);
    expect(delayed.history.map((h) => h.to)).toEqual(['PENDING', 'CREATED', 'IN_PROGRESS', 'DELAYED', 'COMPLETED']);
    const rejected = await giro.movements.getMovement(originIds.reject);
    expect(rejected.cancellation?.reason).toEqual({
      kind: 'refused',
      code: 'TRANSFER_REJECTED',
      message: 'the destination entity rejected the transfer; nothing was sent',
    });
    expect(bank.ledger.entry(originIds.reject)).toBeUndefined();
    // The lost answers were resolved by looking the same originId up, never by sending it again.
    for (const name of ['lost', 'lostFail', 'lostDelay']) {
      expect(bank.ledger.entry(originIds[name])).toMatchObject({ creationAnswer: 'lost', duplicateRequests: 0 });
    }
    expect(bank.counters().processed).toBe(6);
    await expectBankSawTheContract(bank, giro.movements);
    await expectOneCancellationPerFailed(giro);
  });

  it('answers the same originId and payload with the stored movement, another payload with a conflict', async () => {
    const request = transferRequest('rent', { originId: 555, amount: 1234.5 });
    const first = await giro.transfers.requestTransfer(request);
    expect(first).toMatchObject({ created: true, movement: { originId: 555, status: 'CREATED', amount: '1234.50' } });

    // The same payload, the amount written as a decimal string this time.
    const replay = await giro.transfers.requestTransfer({ ...request, body: { ...request.body, amount: '1234.50' } });
    expect(replay).toEqual({ created: false, movement: first.movement });

    const other = { ...request, body: { ...request.body, amount: '99.00' } };
    await expect(giro.transfers.requestTransfer(other)).rejects.toBeInstanceOf(TransferConflictError);
    expect(await giro.movements.getMovement(555)).toEqual(first.movement);
    expect(bank.counters()).toMatchObject({ processed: 1, duplicates: 0 });
  });

  it('allocates new originIds that only move forward, also for a host that records one before sending', async () => {
    const ids: number[] = [];
    for (let i = 0; i < 2; i++)
      ids.push((await giro.transfers.requestTransfer(transferRequest('rent'))).movement.originId);
    const reserved = await giro.transfers.allocateOriginId();
    const request = transferRequest('rent', { originId: reserved });
    expect((await giro.transfers.requestTransfer(request)).created).toBe(true);
    expect((await giro.transfers.requestTransfer(request)).created).toBe(false); // the host's retry after a crash
    ids.push(reserved, (await giro.transfers.requestTransfer(transferRequest('rent'))).movement.originId);
    expect(ids[0]).toBeGreaterThanOrEqual(START * 1000);
    for (let i = 1; i < ids.length; i++) expect(ids[i]).toBeGreaterThan(ids[i - 1]);
    expect(bank.counters()).toMatchObject({ processed: 4, duplicates: 0 });
  });

  it('refuses an invalid request with every bad field named, storing and sending nothing', async () => {
    const request = transferRequest('rent\u0000', { amount: '1.999' });
    const error = await giro.transfers.requestTransfer({ ...request, originId: -4 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransferValidationError);
    expect((error as TransferValidationError).violations.map((v) => `${v.field}:${v.rule}`).sort()).toEqual([
      'body.amount:amount',
      'body.description:characters',
      'originId:origin_id',
    ]);
    expect(await allMovements(giro.movements)).toEqual([]);
    expect(bank.counters().requests['transfer-request']).toBeUndefined();
  });

  it('sends the same originId again when the bank does not know it after an unknown outcome', async () => {
    // Processed, but the answer is lost; then the bank takes 400 ms to register it.
    bank.configure({ registrationLagMs: 400, faults: { resetAfterRate: 1 } });
    const { movement } = await giro.transfers.requestTransfer(transferRequest('rent'));
    expect(movement).toMatchObject({ status: 'PENDING', attempts: 1 });
    bank.configure({ faults: { resetAfterRate: 0 } });

    await sweepUntilFinal(giro, clock);

    const entry = bank.ledger.entry(movement.originId);
    expect(entry).toMatchObject({ creationAnswer: 'reset-after', status: 'COMPLETED' });
    expect(entry?.lookups[0].answered).toBe('NOT_FOUND'); // looked up first…
    expect(entry?.duplicateRequests).toBeGreaterThanOrEqual(1); // …then the SAME originId sent again
    expect(bank.ledger.size).toBe(1);
    const stored = await giro.movements.getMovement(movement.originId);
    expect(stored.status).toBe('COMPLETED');
    expect(stored.history.map((h) => h.source)).toContain('resend');
    expect(stored.cancellation).toBeNull();
    await expectBankSawTheContract(bank, giro.movements);
  });

  it('sends the same originId again when the request never reached the bank (5xx before processing)', async () => {
    bank.configure({ faults: { serverErrorRate: 1 } });
    const { movement } = await giro.transfers.requestTransfer(transferRequest('rent'));
    expect(movement).toMatchObject({ status: 'PENDING', attempts: 1, lastError: expect.stringMatching(/HTTP 500/) });
    bank.configure({ faults: { serverErrorRate: 0 } });

    await sweepUntilFinal(giro, clock);

    expect(bank.counters().requests['get-movement']).toMatchObject({ 'not-found': 1 });
    expect(bank.ledger.page().entries.map((e) => e.originId)).toEqual([movement.originId]);
    expect((await giro.movements.getMovement(movement.originId)).status).toBe('COMPLETED');
    await expectBankSawTheContract(bank, giro.movements);
  });

  it('refreshes on demand, refusing sooner than the polling rule allows and while another worker holds it', async () => {
    const { movement } = await giro.transfers.requestTransfer(transferRequest('rent'));
    const tooSoon = await giro.bankLookups.refreshMovement(movement.originId).catch((e: unknown) => e);
    expect(tooSoon).toBeInstanceOf(PollTooSoonError);
    expect(tooSoon).toMatchObject({ retryAfterMs: 100, retryAt: new Date(START + 100) });

    clock.advance(100);
    expect(await giro.store.claim(movement.originId, 'another-worker', 5_000)).not.toBeNull();
    await expect(giro.bankLookups.refreshMovement(movement.originId)).rejects.toBeInstanceOf(MovementBusyError);
    await giro.store.releaseLease(movement.originId, 'another-worker');

    const refreshed = await giro.bankLookups.refreshMovement(movement.originId);
    expect(refreshed).toMatchObject({ status: 'IN_PROGRESS', queries: 1 });
    expect(refreshed.history.at(-1)).toMatchObject({ from: 'CREATED', to: 'IN_PROGRESS', source: 'refresh' });
    await expect(giro.bankLookups.refreshMovement(987654321)).rejects.toBeInstanceOf(MovementNotFoundError);
    expect(bank.counters().pollsTooEarly).toBe(0);
  });

  it('after taking over from a worker that stopped mid-call, waits out the DELAYED rule its lost answer may set', async () => {
    bank.configure({ timings: { delayedMs: 10_000 } });
    const { movement } = await giro.transfers.requestTransfer(transferRequest('rent [delay]'));
    const { originId } = movement;
    clock.advance(500); // the bank says DELAYED from 400 ms on

    // A worker claims it and calls the bank as late as its lease allows, the call taking all of its time: the
    // bank answers DELAYED just before the lease expires, and the worker stops before recording the answer.
    const stoppedWorker = new BankClient(await sandboxBankOptions(bank.url, { clock }));
    const leaseMs = 4_200;
    const claimedAt = clock.now().getTime();
    expect(await giro.store.claim(originId, 'stopped-worker', leaseMs)).not.toBeNull();
    clock.advance(leaseMs - 100);
    expect((await stoppedWorker.getMovement({ originId })).status).toBe('DELAYED');
    await stoppedWorker.close();
    clock.advance(100);

    await giro.reconcile.sweep();
    expect(bank.counters().pollsTooEarly).toBe(0);
    const takenOver = await giro.store.findByOriginId(originId);
    expect(takenOver).toMatchObject({ status: 'CREATED', queries: 0, leaseOwner: null });
    expect(takenOver?.nextQueryAt).toEqual(new Date(claimedAt + leaseMs + POLLING.delayedMinIntervalMs + 1));
    const refused = await giro.bankLookups.refreshMovement(originId).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(PollTooSoonError);

    await sweepUntilFinal(giro, clock);
    expect((await giro.movements.getMovement(originId)).status).toBe('COMPLETED');
    await expectBankSawTheContract(bank, giro.movements);
  });

  it('lists movements by status with a cursor, and lets the host acknowledge cancellations', async () => {
    for (const description of ['a', 'b [reject]', 'c', 'd [reject]', 'e [reject]']) {
      await giro.transfers.requestTransfer(transferRequest(description));
    }
    const page1 = await giro.movements.listMovements({ status: 'FAILED' }, { limit: 2 });
    expect(page1.items.map((m) => m.description)).toEqual(['b [reject]', 'd [reject]']);
    const page2 = await giro.movements.listMovements(
      { status: 'FAILED' },
      { limit: 2, after: page1.nextCursor as string },
    );
    expect(page2).toMatchObject({ items: [{ description: 'e [reject]' }], nextCursor: null });
    await expect(giro.movements.listMovements({}, { limit: 0 })).rejects.toMatchObject({
      violations: [{ field: 'limit', rule: 'range' }],
    });

    const pending = await giro.cancellations.listCancellations({ acknowledged: false });
    expect(pending).toHaveLength(3);
    const acknowledged = await giro.cancellations.acknowledgeCancellation(pending[0].originId);
    expect(acknowledged.acknowledgedAt).toBe(new Date(START).toISOString());
    expect(await giro.cancellations.listCancellations({ acknowledged: false })).toHaveLength(2);
    expect(await giro.cancellations.acknowledgeCancellation(pending[0].originId)).toEqual(acknowledged); // idempotent
  });
});
