import { CancellationNotFoundError, MovementUpdateRejectedError } from './persistence.errors';
import { type StoreFixture, storeFixture, T0 } from './testing/store-fixture';
import { describeEachEngine } from './testing/test-engines';

const LEASE = 30_000;

describeEachEngine('MovementStore cancellations', (engine) => {
  async function fail(fixture: StoreFixture, originId: number, amount = '1234.50') {
    await fixture.record(originId, { amount });
    await fixture.store.claim(originId, 'w', LEASE);
    return fixture.store.applyUpdate(originId, 'w', {
      patch: { status: 'FAILED', lastError: 'INSUFFICIENT_FUNDS' },
      history: [{ to: 'FAILED', source: 'query' }],
      cancellation: { code: 'INSUFFICIENT_FUNDS', message: 'not enough money' },
      releaseLease: true,
    });
  }

  it('writes FAILED and its one cancellation together', async () => {
    const fixture = await storeFixture(engine);
    fixture.clock.advance(50);
    const result = await fail(fixture, 1, '77.10');
    const expected = {
      originId: 1,
      amount: '77.10',
      currencyId: '032',
      reasonCode: 'INSUFFICIENT_FUNDS',
      reasonMessage: 'not enough money',
      createdAt: new Date(T0 + 50),
      acknowledgedAt: null,
    };
    expect(result).toMatchObject({
      applied: true,
      cancellation: expected,
      movement: { status: 'FAILED', nextQueryAt: null },
    });
    expect(await fixture.store.findByOriginId(1)).toMatchObject({ status: 'FAILED', cancellation: expected });
  });

  it('refuses FAILED without a cancellation, and a cancellation without FAILED', async () => {
    const fixture = await storeFixture(engine);
    await fixture.record(1);
    await fixture.store.claim(1, 'w', LEASE);
    await expect(
      fixture.store.applyUpdate(1, 'w', {
        patch: { status: 'FAILED' },
        history: [{ to: 'FAILED', source: 'query' }],
        releaseLease: false,
      }),
    ).rejects.toThrow(/FAILED needs its cancellation/);
    await expect(
      fixture.store.applyUpdate(1, 'w', {
        patch: {},
        cancellation: { code: null, message: null },
        releaseLease: false,
      }),
    ).rejects.toThrow(MovementUpdateRejectedError);
    expect(await fixture.store.findByOriginId(1)).toMatchObject({ status: 'PENDING', cancellation: null });
  });

  it('makes a second cancellation impossible, and then rolls the status change back with it', async () => {
    const fixture = await storeFixture(engine);
    await fail(fixture, 1);
    // The database itself refuses a second row for the movement.
    await expect(
      fixture.dataSource.query(
        `INSERT INTO "giro_cancellations" ("origin_id", "amount", "currency_id", "created_at_ms") VALUES (1, '1.00', '032', 0)`,
      ),
    ).rejects.toThrow(/unique|duplicate/i);

    // A cancellation row that is already there (it cannot happen through the store) makes the FAILED update
    // fail as a whole: no status change, no history row.
    await fixture.record(2);
    await fixture.dataSource.query(
      `INSERT INTO "giro_cancellations" ("origin_id", "amount", "currency_id", "created_at_ms") VALUES (2, '1.00', '032', 0)`,
    );
    await fixture.store.claim(2, 'w', LEASE);
    await expect(
      fixture.store.applyUpdate(2, 'w', {
        patch: { status: 'FAILED' },
        history: [{ to: 'FAILED', source: 'query' }],
        cancellation: { code: 'X', message: null },
        releaseLease: true,
      }),
    ).rejects.toThrow(/unique|duplicate/i);
    const stored = await fixture.store.findByOriginId(2);
    expect(stored).toMatchObject({ status: 'PENDING', leaseOwner: 'w', cancellation: { amount: '1.00' } });
    expect(stored?.history.map((row) => row.to)).toEqual(['PENDING']);
  });

  it('lists cancellations by acknowledgement and acknowledges them idempotently', async () => {
    const fixture = await storeFixture(engine);
    const { store, clock } = fixture;
    for (const originId of [3, 1, 2]) {
      await fail(fixture, originId);
      clock.advance(10);
    }
    expect((await store.listCancellations()).map((c) => c.originId)).toEqual([3, 1, 2]);
    expect(await store.countUnacknowledgedCancellations()).toBe(3);

    const acknowledged = await store.acknowledgeCancellation(1);
    expect(acknowledged).toMatchObject({ originId: 1, acknowledgedAt: clock.now() });
    clock.advance(1000);
    expect(await store.acknowledgeCancellation(1)).toEqual(acknowledged);

    expect((await store.listCancellations({ acknowledged: false })).map((c) => c.originId)).toEqual([3, 2]);
    expect((await store.listCancellations({ acknowledged: true })).map((c) => c.originId)).toEqual([1]);
    expect(await store.countUnacknowledgedCancellations()).toBe(2);
  });

  it('answers a typed error for an unknown cancellation', async () => {
    const fixture = await storeFixture(engine);
    await fixture.record(1); // a movement, but not FAILED
    await expect(fixture.store.acknowledgeCancellation(1)).rejects.toThrow(CancellationNotFoundError);
    await expect(fixture.store.acknowledgeCancellation(2)).rejects.toMatchObject({
      constructor: CancellationNotFoundError,
      originId: 2,
    });
  });
});
