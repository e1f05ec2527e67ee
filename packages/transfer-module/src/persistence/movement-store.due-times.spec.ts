import { StoreArgumentError } from './persistence.errors';
import { type StoreFixture, storeFixture, T0 } from './testing/store-fixture';
import { describeEachEngine } from './testing/test-engines';

const LEASE = 30_000;

describeEachEngine('MovementStore due times (claimDue dueBy, nextDueAt)', (engine) => {
  /** Moves a recorded movement to `status`, due at `dueAt` (ignored when final), and frees it. */
  async function settle(fixture: StoreFixture, originId: number, status: 'CREATED' | 'COMPLETED', dueAt: number) {
    expect(await fixture.store.claim(originId, 'setup', LEASE)).not.toBeNull();
    const result = await fixture.store.applyUpdate(originId, 'setup', {
      patch: { status, nextQueryAt: new Date(dueAt), lastAnswerAt: fixture.clock.now() },
      history: [{ to: status, source: 'create' }],
      releaseLease: true,
    });
    expect(result.applied).toBe(true);
  }

  it('claims only movements due by dueBy, leasing them from now', async () => {
    const fixture = await storeFixture(engine);
    const { store, clock } = fixture;
    await fixture.record(1); // due at T0
    await fixture.record(2);
    await settle(fixture, 2, 'CREATED', T0 + 500);
    clock.advance(1_000);
    await fixture.record(3); // due at T0 + 1000, after dueBy

    const claimed = await store.claimDue({ owner: 'sweep', limit: 10, leaseMs: LEASE, dueBy: new Date(T0 + 500) });
    expect(claimed.map((movement) => movement.originId)).toEqual([1, 2]);
    for (const movement of claimed) expect(movement.leaseExpiresAt).toEqual(new Date(T0 + 1_000 + LEASE));
    expect(await store.findByOriginId(3)).toMatchObject({ leaseOwner: null });
  });

  it('judges leases against now, not dueBy', async () => {
    const fixture = await storeFixture(engine);
    const { store, clock } = fixture;
    await fixture.record(1);
    await fixture.record(2);
    expect(await store.claim(1, 'crashed', LEASE)).not.toBeNull();
    clock.advance(LEASE); // that lease has expired now; it had not at T0
    expect(await store.claim(2, 'alive', LEASE)).not.toBeNull();

    const claimed = await store.claimDue({ owner: 'sweep', limit: 10, leaseMs: LEASE, dueBy: new Date(T0) });
    expect(claimed.map((movement) => [movement.originId, movement.leaseOwner])).toEqual([[1, 'sweep']]);
  });

  it('refuses a dueBy that is not a valid Date, naming the field', async () => {
    const { store } = await storeFixture(engine);
    for (const dueBy of [new Date(Number.NaN), '2026-01-01' as unknown as Date]) {
      await expect(store.claimDue({ owner: 'a', limit: 1, leaseMs: LEASE, dueBy })).rejects.toMatchObject({
        constructor: StoreArgumentError,
        field: 'dueBy',
        rule: 'date',
      });
    }
  });

  it('has no next due time without movements waiting', async () => {
    const fixture = await storeFixture(engine);
    expect(await fixture.store.nextDueAt()).toBeNull();
    await fixture.record(1);
    await settle(fixture, 1, 'COMPLETED', T0 + 5_000);
    expect(await fixture.store.nextDueAt()).toBeNull();
  });

  it('gives the earliest nextQueryAt of a movement not final, past or future', async () => {
    const fixture = await storeFixture(engine);
    const { store, clock } = fixture;
    for (const originId of [1, 2, 3]) await fixture.record(originId);
    await settle(fixture, 1, 'CREATED', T0 + 9_000);
    await settle(fixture, 2, 'CREATED', T0 + 7_000);
    await settle(fixture, 3, 'COMPLETED', T0 + 1_000);
    expect(await store.nextDueAt()).toEqual(new Date(T0 + 7_000));

    clock.advance(60_000);
    await fixture.record(4); // PENDING, due at once
    expect(await store.nextDueAt()).toEqual(new Date(T0 + 7_000)); // still the earliest, now overdue
  });

  it('skips movements under an unexpired lease, and counts them again once it expires', async () => {
    const fixture = await storeFixture(engine);
    const { store, clock } = fixture;
    await fixture.record(1);
    await fixture.record(2);
    await settle(fixture, 2, 'CREATED', T0 + 5_000);
    expect(await store.claim(1, 'worker', LEASE)).not.toBeNull();
    expect(await store.nextDueAt()).toEqual(new Date(T0 + 5_000));

    expect(await store.claim(2, 'worker', LEASE)).not.toBeNull();
    expect(await store.nextDueAt()).toBeNull();

    clock.advance(LEASE);
    expect(await store.nextDueAt()).toEqual(new Date(T0));
  });
});
