import { BankCallBudget, type BankMovement, parseMovement } from '../bank';
import { movementAnswer } from '../bank/testing/bank-fixtures';
import { type BankStatus, type MovementStatus, PollingPolicy } from '../domain';
import type { MovementStore } from '../persistence';
import { sampleIntent } from '../persistence/testing/sample-intent';
import { storeFixture } from '../persistence/testing/store-fixture';
import { describeEachEngine } from '../persistence/testing/test-engines';
import type { BankPort } from './bank-port';
import { FailureCounts } from './failure-counts';
import { MovementEvents, TRANSFER_EVENTS } from './movement-events';
import { MovementSender } from './movement-sender';
import { QuerySchedule } from './query-schedule';
import { silentLogger } from './testing/sender-fixture';

// What the sandbox bank never does: contradict a final status, or answer late with an older one. A scripted
// bank shows that such answers are recorded (anomaly) or ignored (stale), never applied, on a real store.

const OWNER = 'worker-1';
const LEASE_MS = 60_000;

/** A bank that answers every lookup with the given status. */
function answering(status: BankStatus): BankPort {
  return {
    createTransferRequest: () => Promise.reject(new Error('not expected')),
    getMovement: async ({ originId }) => {
      const parsed = parseMovement(movementAnswer(originId, status));
      if (!parsed.ok) throw new Error('fixture answer must parse');
      return parsed.movement as BankMovement;
    },
  };
}

describeEachEngine('MovementSender with a contradicting bank', (engine) => {
  async function setup(bank: BankPort) {
    const fixture = await storeFixture(engine);
    const events = { emit: jest.fn() };
    const sender = new MovementSender(
      { clock: fixture.clock, sweep: { leaseMs: LEASE_MS }, callGuardMs: 1_000 },
      fixture.store,
      bank,
      new BankCallBudget({ maxInFlight: 1 }),
      new QuerySchedule(new PollingPolicy({ maxJitterMs: 0 })),
      new FailureCounts(),
      new MovementEvents(events, fixture.store, silentLogger),
      OWNER,
      silentLogger,
    );
    return { ...fixture, events, sender };
  }

  /** A movement already moved to `status` by earlier answers, then claimed for a refresh. */
  async function movementIn(store: MovementStore, status: MovementStatus) {
    const { intent, fingerprint } = sampleIntent(42);
    await store.recordIntent(intent, fingerprint, { sendNow: true, owner: OWNER, leaseMs: LEASE_MS });
    await store.applyUpdate(42, OWNER, {
      patch: { status, networkId: 'net-42' },
      history: [{ to: status, source: 'create' }],
      ...(status === 'FAILED' && { cancellation: { code: null, message: 'failed' } }),
      releaseLease: true,
    });
    const claimed = await store.claim(42, OWNER, LEASE_MS);
    if (!claimed) throw new Error('claim expected');
    return claimed;
  }

  it.each([
    ['COMPLETED', 'FAILED'],
    ['FAILED', 'COMPLETED'],
    ['COMPLETED', 'IN_PROGRESS'],
  ] as const)('keeps %s when the bank later answers %s: an anomaly, recorded and raised', async (final, claimed) => {
    const { store, events, sender } = await setup(answering(claimed));
    const step = await sender.followUp(await movementIn(store, final), 'refresh', 0);

    expect(step).toMatchObject({ queried: 1, changedTo: null, anomaly: true });
    const stored = await store.findByOriginId(42);
    expect(stored).toMatchObject({ status: final, leaseOwner: null, nextQueryAt: null });
    expect(stored?.history.at(-1)).toMatchObject({ from: final, to: claimed, source: 'anomaly' });
    expect((await store.listCancellations()).length).toBe(final === 'FAILED' ? 1 : 0); // none added, none lost
    expect(events.emit).toHaveBeenCalledTimes(1);
    expect(events.emit).toHaveBeenCalledWith(
      TRANSFER_EVENTS.anomaly,
      expect.objectContaining({
        originId: 42,
        status: final,
        claimed,
        source: 'refresh',
        movement: expect.objectContaining({ status: final, anomalies: [expect.objectContaining({ claimed })] }),
      }),
    );
  });

  it('ignores an older answer arriving late: no step back, no event', async () => {
    const { store, events, sender } = await setup(answering('CREATED'));
    const step = await sender.followUp(await movementIn(store, 'DELAYED'), 'query', 0);
    expect(step).toMatchObject({ queried: 1, changedTo: null, anomaly: false });
    expect(await store.findByOriginId(42)).toMatchObject({ status: 'DELAYED', queries: 1 });
    expect(events.emit).not.toHaveBeenCalled();
  });
});

describeEachEngine('MovementSender and the bank budget', (engine) => {
  it('hands each bank call the budget’s own “written” callback, so the budget counts it from its write', async () => {
    const fixture = await storeFixture(engine);
    const told: unknown[] = [];
    const movement = (originId: number) => {
      const parsed = parseMovement(movementAnswer(originId, 'IN_PROGRESS'));
      if (!parsed.ok) throw new Error('fixture answer must parse');
      return parsed.movement as BankMovement;
    };
    const bank: BankPort = {
      createTransferRequest: async (request, options) => {
        told.push(options?.onWritten);
        return { movement: movement(request.originId), duplicate: false };
      },
      getMovement: async ({ originId }, options) => {
        told.push(options?.onWritten);
        return movement(originId);
      },
    };
    const budget = new BankCallBudget({ maxInFlight: 1 });
    const given: unknown[] = [];
    const throttle = budget.throttle.bind(budget);
    jest.spyOn(budget, 'throttle').mockImplementation((priority, call) =>
      throttle(priority, (written) => {
        given.push(written);
        return call(written);
      }),
    );
    const sender = new MovementSender(
      { clock: fixture.clock, sweep: { leaseMs: LEASE_MS }, callGuardMs: 1_000 },
      fixture.store,
      bank,
      budget,
      new QuerySchedule(new PollingPolicy({ maxJitterMs: 0 })),
      new FailureCounts(),
      new MovementEvents(undefined, fixture.store, silentLogger),
      OWNER,
      silentLogger,
    );
    const { intent, fingerprint } = sampleIntent(42);

    await sender.sendFirst(intent, fingerprint);
    const claimed = await fixture.store.claim(42, OWNER, LEASE_MS);
    if (!claimed) throw new Error('claim expected');
    await sender.followUp(claimed, 'query', 0);

    expect(given).toHaveLength(2);
    expect(told).toEqual(given);
    for (const written of told) expect(written).toBeInstanceOf(Function);
  });
});
