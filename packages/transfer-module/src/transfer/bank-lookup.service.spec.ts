import { POLLING, transferRequest } from '@test-support/giro-harness';
import { BankClient, BankMovementNotFoundError } from '../bank';
import { intentFingerprint, intentToWire, validateTransferIntent } from '../domain';
import { MovementNotFoundError } from '../persistence';
import { describeEachEngine } from '../persistence/testing/test-engines';
import { transferServiceFixture } from './testing/transfer-service-fixture';
import { PollTooSoonError, TransferValidationError } from './transfer.errors';

// BankLookupService against the sandbox bank: a movement giro does not store, by each of its three
// names; a stored one (a refresh); the network's raw format; and the polling rule for all of them.

describeEachEngine('BankLookupService', (engine) => {
  const { fixture, setup } = transferServiceFixture(engine);

  /** A transfer sent to the bank by someone else than giro: the bank knows it, giro's database does not. */
  async function foreignMovement(originId: number) {
    const validated = validateTransferIntent(transferRequest('sent elsewhere', { originId }));
    if (!validated.ok) throw new Error('the request is valid');
    return (await (fixture.client as BankClient).createTransferRequest(intentToWire({ ...validated.intent, originId })))
      .movement;
  }

  const lookups = () => fixture.bank.counters().requests['get-movement'] ?? {};

  it('names the fields of a lookup that is not exactly one of originId, networkId, debinId, asking nothing', async () => {
    const { bankLookups } = await setup();
    const violations = async (lookup: unknown) => {
      const error = await bankLookups.lookUpAtBank(lookup).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(TransferValidationError);
      return (error as TransferValidationError).violations.map((v) => [v.field, v.rule]);
    };
    expect(await violations({})).toEqual([['', 'one_of']]);
    expect(await violations({ originId: 5, networkId: 'N' })).toEqual([
      ['originId', 'one_of'],
      ['networkId', 'one_of'],
    ]);
    expect(await violations({ debinId: '' })).toEqual([['debinId', 'lookup_value']]);
    expect(await violations({ originId: 1.5 })).toEqual([['originId', 'lookup_value']]);
    expect(await violations({ id: 'x', networkId: 'N' })).toEqual([['id', 'unknown_field']]);
    expect(await violations('N')).toEqual([['', 'type']]);
    expect(lookups()).toEqual({});
  });

  it('asks about a movement giro does not store, by each of its names, and stores nothing', async () => {
    const { store, bankLookups } = await setup();
    const foreign = await foreignMovement(9_001);
    const entry = fixture.bank.ledger.entry(9_001);
    if (!entry) throw new Error('the bank processed it');
    for (const lookup of [{ originId: 9_001 }, { networkId: entry.networkId }, { debinId: entry.debinId }]) {
      const view = await bankLookups.lookUpAtBank(lookup);
      expect(view).toMatchObject({
        stored: false,
        status: 'CREATED',
        originId: 9_001,
        amount: '1234.50',
        currencyId: '032',
        bank: { movementId: foreign.id, networkId: entry.networkId, network: 'COELSA' },
      });
      expect(view.bank.thisSubAccount?.accountRouting?.address).toBe(transferRequest('x').from.address);
      expect(view.answer).toMatchObject({ id: foreign.id, status: 'CREATED' });
    }
    expect(await store.findByOriginId(9_001)).toBeNull();
    await expect(bankLookups.lookUpAtBank({ networkId: 'NOT-A-NETWORK-ID' })).rejects.toBeInstanceOf(
      BankMovementNotFoundError,
    );
  });

  it('refreshes a stored movement asked about by originId or network id, under the polling rule', async () => {
    const { transfers, movements, bankLookups } = await setup();
    const { movement } = await transfers.requestTransfer(transferRequest('rent'));
    const networkId = movement.networkId as string;
    expect(await movements.findByNetworkId(networkId)).toMatchObject({ originId: movement.originId });
    expect(await movements.findByNetworkId('UNKNOWN')).toBeNull();
    await expect(bankLookups.lookUpAtBank({ networkId })).rejects.toBeInstanceOf(PollTooSoonError);
    expect(lookups()).toEqual({});

    fixture.clock.advance(POLLING.minIntervalMs + 150); // past CREATED at the bank (100 ms)
    const view = await bankLookups.lookUpAtBank({ networkId });
    expect(view).toMatchObject({ stored: true, status: 'IN_PROGRESS', originId: movement.originId });
    expect(await movements.getMovement(movement.originId)).toMatchObject({ status: 'IN_PROGRESS', queries: 1 });
    await expect(bankLookups.lookUpAtBank({ originId: movement.originId })).rejects.toBeInstanceOf(PollTooSoonError);
    expect(fixture.bank.counters().pollsTooEarly).toBe(0);
  });

  it('shows what the bank said when its answer about a stored movement is an anomaly, not the answer stored before', async () => {
    const { store, movements, bankLookups } = await setup();
    const foreign = await foreignMovement(9_200); // at the bank: 1234.50
    // giro stores originId 9200 as a transfer of other money, once answered (an answer of its own stored).
    const validated = validateTransferIntent(transferRequest('ours', { originId: 9_200, amount: '99.00' }));
    if (!validated.ok) throw new Error('the request is valid');
    const intent = { ...validated.intent, originId: 9_200 };
    const owner = 'earlier-worker';
    await store.recordIntent(intent, intentFingerprint(intent), {
      sendNow: true,
      owner,
      leaseMs: 60_000,
    });
    const earlier = { id: 'mov-earlier', status: 'CREATED', details: { originId: 9_200, amount: 99 } };
    await store.applyUpdate(9_200, owner, {
      patch: { status: 'CREATED', lastBankAnswer: earlier, lastAnswerAt: fixture.clock.now() },
      history: [{ to: 'CREATED', source: 'create' }],
      releaseLease: true,
    });
    fixture.clock.advance(POLLING.minIntervalMs);

    const view = await bankLookups.lookUpAtBank({ originId: 9_200 });
    expect(view).toMatchObject({
      stored: true,
      status: 'IN_PROGRESS',
      amount: '1234.50',
      bank: { movementId: foreign.id },
      answer: { id: foreign.id },
      anomaly: "the bank's answer names the amount 1234.50, the transfer's is 99.00",
    });
    // Recorded as an anomaly, not applied: the stored answer is still the earlier one.
    const stored = await movements.getMovement(9_200);
    expect(stored.bank?.movementId).toBe('mov-earlier');
    expect(stored.anomalies).toHaveLength(1);
    // The anomaly shows what the bank said, on the movement too (as a refresh's result does).
    expect(stored.anomalies[0].bank).toMatchObject({ movementId: foreign.id });
  });

  it('finds from its answer that a DEBIN id names a stored movement, records it as its query, and asks by it again only under the polling rule', async () => {
    const { store, transfers, movements, bankLookups } = await setup();
    const { movement } = await transfers.requestTransfer(transferRequest('rent'));
    const debinId = fixture.bank.ledger.entry(movement.originId)?.debinId as string;
    fixture.clock.advance(POLLING.minIntervalMs + 150); // past CREATED at the bank (100 ms)

    // giro has not learned this DEBIN id: it asks, and the answer names the movement.
    const view = await bankLookups.lookUpAtBank({ debinId });
    expect(view).toMatchObject({ stored: true, status: 'IN_PROGRESS', originId: movement.originId, anomaly: null });
    expect(await store.findByOriginId(movement.originId)).toMatchObject({
      status: 'IN_PROGRESS',
      queries: 1,
      debinId,
      lastAnswerAt: fixture.clock.now(),
    });
    expect(await movements.getMovement(movement.originId)).toMatchObject({
      history: [{ to: 'PENDING' }, { to: 'CREATED' }, { to: 'IN_PROGRESS', source: 'refresh' }],
    });

    // Now the DEBIN id is known: the polling rule applies before asking, by it or by the originId.
    const asked = lookups().found ?? 0;
    await expect(bankLookups.lookUpAtBank({ debinId })).rejects.toBeInstanceOf(PollTooSoonError);
    await expect(bankLookups.refreshMovement(movement.originId)).rejects.toBeInstanceOf(PollTooSoonError);
    expect(lookups().found ?? 0).toBe(asked);
    fixture.clock.advance(POLLING.minIntervalMs);
    await expect(bankLookups.lookUpAtBank({ debinId })).resolves.toMatchObject({ stored: true, anomaly: null });
    expect(await store.findByOriginId(movement.originId)).toMatchObject({ queries: 2 });
    expect(fixture.bank.counters().pollsTooEarly).toBe(0);
  });

  it("records the answer to a network id giro had not learned (the creation answer was lost) as the movement's query", async () => {
    const { store, transfers, bankLookups } = await setup();
    const { movement } = await transfers.requestTransfer(transferRequest('rent [lost]'));
    expect(movement).toMatchObject({ status: 'PENDING', networkId: null });
    const networkId = fixture.bank.ledger.entry(movement.originId)?.networkId as string;
    fixture.clock.advance(POLLING.minIntervalMs + 150);

    await expect(bankLookups.lookUpAtBank({ networkId })).resolves.toMatchObject({
      stored: true,
      status: 'IN_PROGRESS',
    });
    expect(await store.findByOriginId(movement.originId)).toMatchObject({
      status: 'IN_PROGRESS',
      networkId,
      queries: 1,
    });
    const asked = lookups().found ?? 0;
    await expect(bankLookups.lookUpAtBank({ networkId })).rejects.toBeInstanceOf(PollTooSoonError);
    expect(lookups().found ?? 0).toBe(asked);
  });

  it('does not take an answer to a DEBIN id for a stored movement when it names other money, and records nothing', async () => {
    const { store, bankLookups } = await setup();
    await foreignMovement(9_300); // at the bank: 1234.50
    const validated = validateTransferIntent(transferRequest('ours', { originId: 9_300, amount: '99.00' }));
    if (!validated.ok) throw new Error('the request is valid');
    const intent = { ...validated.intent, originId: 9_300 };
    await store.recordIntent(intent, intentFingerprint(intent), { sendNow: false });
    const debinId = fixture.bank.ledger.entry(9_300)?.debinId as string;

    await expect(bankLookups.lookUpAtBank({ debinId })).resolves.toMatchObject({ stored: false, originId: 9_300 });
    expect(await store.findByOriginId(9_300)).toMatchObject({ status: 'PENDING', queries: 0, debinId: null });
  });

  it('counts a DEBIN id lookup of a movement another worker holds, and holds that worker and the next sweep back by it', async () => {
    const { store, sender, owner, transfers, bankLookups } = await setup();
    const { movement } = await transfers.requestTransfer(transferRequest('rent'));
    const { originId } = movement;
    const debinId = fixture.bank.ledger.entry(originId)?.debinId as string;
    fixture.clock.advance(POLLING.minIntervalMs + 150);
    expect(await store.claim(originId, 'sweeping-worker', 60_000)).not.toBeNull();

    await expect(bankLookups.lookUpAtBank({ debinId })).resolves.toMatchObject({ stored: true, status: 'IN_PROGRESS' });
    const heldUntil = new Date(fixture.clock.now().getTime() + POLLING.minIntervalMs);
    expect(await store.findByOriginId(originId)).toMatchObject({
      status: 'CREATED', // the answer is not applied: only the lease's owner writes one
      queries: 1,
      debinId,
      queriesHeldUntil: heldUntil,
      leaseOwner: 'sweeping-worker',
    });

    // The worker writes its own answer, due again at once by its rule; the next claim still asks nothing before the hold.
    await store.applyUpdate(originId, 'sweeping-worker', {
      patch: { lastAnswerAt: fixture.clock.now(), nextQueryAt: fixture.clock.now() },
      releaseLease: true,
    });
    const claimed = await store.claim(originId, owner, 60_000); // as the next sweep of this worker
    if (claimed === null) throw new Error('the movement is free');
    const asked = lookups().found ?? 0;
    const step = await sender.followUp(claimed, 'query', 0);
    expect(step.deferredUntil).toEqual(heldUntil);
    expect(lookups().found ?? 0).toBe(asked);
    expect(await store.findByOriginId(originId)).toMatchObject({ nextQueryAt: heldUntil, leaseOwner: null });
  });

  it("returns the network's raw answer as it came, as a query under the polling rule", async () => {
    const { transfers, movements, bankLookups } = await setup();
    const { movement } = await transfers.requestTransfer(transferRequest('rent'));
    await expect(bankLookups.rawBankAnswer(movement.originId)).rejects.toBeInstanceOf(PollTooSoonError);
    await expect(bankLookups.rawBankAnswer(999_999)).rejects.toBeInstanceOf(MovementNotFoundError);

    fixture.clock.advance(POLLING.minIntervalMs);
    const raw = await bankLookups.rawBankAnswer(movement.originId);
    expect(raw).toMatchObject({ formato: 'COELSA-TRF-1', transferencia: { id_origen: String(movement.originId) } });
    const after = await movements.getMovement(movement.originId);
    expect(after).toMatchObject({ status: 'CREATED', queries: 1, lastAnswerAt: fixture.clock.now().toISOString() });

    // Its status is not read: the next query waits as after DELAYED, the longer rule.
    fixture.clock.advance(POLLING.delayedMinIntervalMs);
    await expect(bankLookups.refreshMovement(movement.originId)).rejects.toBeInstanceOf(PollTooSoonError);
    expect(Date.parse(after.nextQueryAt as string)).toBeGreaterThan(fixture.clock.now().getTime());
    fixture.clock.advance(1);
    await expect(bankLookups.refreshMovement(movement.originId)).resolves.toMatchObject({ status: 'COMPLETED' });
    expect(fixture.bank.counters().pollsTooEarly).toBe(0);
  });

  it('holds a raw lookup back after taking over from a worker that stopped mid-call, as a sweep would', async () => {
    const { store, transfers, bankLookups } = await setup();
    const { movement } = await transfers.requestTransfer(transferRequest('rent'));
    const leaseMs = 4_000;
    expect(await store.claim(movement.originId, 'stopped-worker', leaseMs)).not.toBeNull();
    fixture.clock.advance(leaseMs); // its lease expires unreleased: an answer it got may be unrecorded
    const expiredAt = fixture.clock.now().getTime();
    const asked = lookups().found ?? 0;

    await expect(bankLookups.rawBankAnswer(movement.originId)).rejects.toMatchObject({
      constructor: PollTooSoonError,
      retryAt: new Date(expiredAt + POLLING.delayedMinIntervalMs + 1),
    });
    expect(lookups().found ?? 0).toBe(asked); // the bank was not asked
    expect(await store.findByOriginId(movement.originId)).toMatchObject({ leaseOwner: null, queries: 0 });
  });

  it('asks about a final movement again no sooner than the polling interval after its last answer', async () => {
    const { transfers, bankLookups } = await setup();
    const { movement } = await transfers.requestTransfer(transferRequest('rent [reject]'));
    expect(movement.status).toBe('FAILED');
    await expect(bankLookups.refreshMovement(movement.originId)).rejects.toMatchObject({
      constructor: PollTooSoonError,
      retryAfterMs: POLLING.minIntervalMs,
    });
    fixture.clock.advance(POLLING.minIntervalMs);
    await expect(bankLookups.refreshMovement(movement.originId)).resolves.toMatchObject({ status: 'FAILED' });
  });
});
