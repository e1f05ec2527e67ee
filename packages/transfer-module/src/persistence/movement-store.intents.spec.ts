import { MAX_ORIGIN_ID } from '../domain';
import { StoreArgumentError } from './persistence.errors';
import { sampleIntent } from './testing/sample-intent';
import { storeFixture, T0 } from './testing/store-fixture';
import { describeEachEngine } from './testing/test-engines';

describeEachEngine('MovementStore.recordIntent', (engine) => {
  it('stores the intent as PENDING, due now, and reads it back exactly', async () => {
    const { store, clock } = await storeFixture(engine);
    const { intent, fingerprint } = sampleIntent(MAX_ORIGIN_ID, { amount: '9876543210.05' });
    const recorded = await store.recordIntent(intent, fingerprint, { sendNow: false });
    expect(recorded.created).toBe(true);
    const { movement } = recorded;
    clock.advance(1000);

    const stored = await store.findByOriginId(MAX_ORIGIN_ID);
    expect(stored).toEqual({ ...movement, history: expect.any(Array), cancellation: null, resolutions: [] });
    expect(stored).toMatchObject({
      originId: MAX_ORIGIN_ID, // a Postgres bigint, read back as the same JS number
      status: 'PENDING',
      intent,
      fingerprint,
      amount: '9876543210.05',
      currencyId: '032',
      attempts: 0,
      queries: 0,
      leaseOwner: null,
      leaseExpiresAt: null,
      nextQueryAt: new Date(T0),
      createdAt: new Date(T0),
      updatedAt: new Date(T0),
      lastAnswerAt: null,
      lastBankAnswer: null,
      version: 1,
    });
    expect(typeof stored?.originId).toBe('number');
    expect(stored?.history).toEqual([
      {
        id: expect.any(Number),
        originId: MAX_ORIGIN_ID,
        from: null,
        to: 'PENDING',
        at: new Date(T0),
        source: 'intent',
        detail: null,
        by: null,
      },
    ]);
    expect(recorded.created && recorded.history).toEqual(stored?.history); // the row it wrote, as stored
  });

  it('with sendNow, leases it to the caller and counts the send before it happens', async () => {
    const { store } = await storeFixture(engine);
    const { intent, fingerprint } = sampleIntent(42);
    const { movement } = await store.recordIntent(intent, fingerprint, {
      sendNow: true,
      owner: 'api-1',
      leaseMs: 30_000,
    });
    expect(movement).toMatchObject({ attempts: 1, leaseOwner: 'api-1', leaseExpiresAt: new Date(T0 + 30_000) });
    expect(await store.findByOriginId(42)).toMatchObject({ attempts: 1, leaseOwner: 'api-1' });
  });

  it('returns the stored movement untouched, created: false, for an originId it already has', async () => {
    const { store, clock } = await storeFixture(engine);
    const first = sampleIntent(7);
    await store.recordIntent(first.intent, first.fingerprint, { sendNow: false });
    clock.advance(5000);
    const other = sampleIntent(7, { amount: '1.00' });
    const again = await store.recordIntent(other.intent, other.fingerprint, {
      sendNow: true,
      owner: 'x',
      leaseMs: 1000,
    });
    expect(again.created).toBe(false);
    expect(again.movement).toMatchObject({
      fingerprint: first.fingerprint,
      amount: '1234.50',
      attempts: 0,
      leaseOwner: null,
      updatedAt: new Date(T0),
    });
    expect(again.movement.fingerprint).not.toBe(other.fingerprint);
    expect((await store.findByOriginId(7))?.history).toHaveLength(1);
  });

  it('takes only a stored originId for "exists": a row the schema refuses still fails, and writes nothing', async () => {
    const { store } = await storeFixture(engine);
    const { intent, fingerprint } = sampleIntent(8);
    const withoutCurrency = { ...intent, currencyId: undefined } as unknown as typeof intent;
    await expect(store.recordIntent(withoutCurrency, fingerprint, { sendNow: false })).rejects.toThrow(/currency_id/);
    expect(await store.findByOriginId(8)).toBeNull();
  });

  it('creates the movement once when two connections record the same originId at the same time', async () => {
    const fixture = await storeFixture(engine);
    const second = await fixture.secondConnection();
    const { intent, fingerprint } = sampleIntent(99);
    const results = await Promise.all(
      [fixture.store, second.store, fixture.store, second.store].map((store) =>
        store.recordIntent(intent, fingerprint, { sendNow: false }),
      ),
    );
    expect(results.filter((result) => result.created)).toHaveLength(1);
    expect(new Set(results.map((result) => result.movement.originId))).toEqual(new Set([99]));
    expect((await fixture.store.findByOriginId(99))?.history).toHaveLength(1);
  });

  it('refuses bad input naming the field, and writes nothing', async () => {
    const { store } = await storeFixture(engine);
    const { intent, fingerprint } = sampleIntent(5);
    await expect(store.recordIntent({ ...intent, originId: 0 }, fingerprint, { sendNow: false })).rejects.toMatchObject(
      {
        constructor: StoreArgumentError,
        field: 'intent.originId',
      },
    );
    await expect(store.recordIntent(intent, 'ABC', { sendNow: false })).rejects.toMatchObject({ field: 'fingerprint' });
    await expect(
      store.recordIntent({ ...intent, amount: '12.5' as typeof intent.amount }, fingerprint, { sendNow: false }),
    ).rejects.toMatchObject({ field: 'intent.amount' });
    await expect(
      store.recordIntent(intent, fingerprint, { sendNow: true, owner: '', leaseMs: 1000 }),
    ).rejects.toMatchObject({ field: 'owner' });
    await expect(
      store.recordIntent(intent, fingerprint, { sendNow: true, owner: 'a', leaseMs: 0 }),
    ).rejects.toMatchObject({
      field: 'leaseMs',
    });
    expect(await store.findByOriginId(5)).toBeNull();
  });
});
