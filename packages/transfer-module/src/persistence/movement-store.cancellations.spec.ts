import { CancellationNotFoundError, MovementUpdateRejectedError, StoreArgumentError } from './persistence.errors';
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
    expect(acknowledged).toMatchObject({
      originId: 1,
      acknowledgedAt: clock.now(),
      reference: null,
      acknowledgedBy: null,
    });
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

  it('records the reference and who acknowledged, keeping the first acknowledgement', async () => {
    const fixture = await storeFixture(engine);
    const { store, clock } = fixture;
    await fail(fixture, 1);
    const by = { keyId: '0123456789abcdef', name: 'payments-bot' };
    const acknowledged = await store.acknowledgeCancellation(1, { reference: 'REG-2026-0001', by });
    expect(acknowledged).toMatchObject({ acknowledgedAt: clock.now(), reference: 'REG-2026-0001', acknowledgedBy: by });
    clock.advance(1000);
    const again = await store.acknowledgeCancellation(1, { reference: 'OTHER', by: { keyId: 'x', name: 'y' } });
    expect(again).toEqual(acknowledged);
    expect((await store.findByOriginId(1))?.cancellation).toEqual(acknowledged);
  });

  it('refuses a bad reference, naming it, and acknowledges nothing', async () => {
    const fixture = await storeFixture(engine);
    await fail(fixture, 1);
    for (const reference of ['', 'x'.repeat(101), 'a\nb', 7]) {
      await expect(fixture.store.acknowledgeCancellation(1, { reference: reference as string })).rejects.toMatchObject({
        constructor: StoreArgumentError,
        field: 'reference',
      });
    }
    expect((await fixture.store.acknowledgeCancellation(1, { reference: 'r'.repeat(100) })).reference).toHaveLength(
      100,
    );
  });

  it('pages cancellations oldest first, by a cursor, with the acknowledged filter', async () => {
    const fixture = await storeFixture(engine);
    const { store, clock } = fixture;
    // Two pairs created in the same millisecond: the cursor orders them by originId.
    for (const [originId, advance] of [
      [5, 0],
      [4, 10],
      [9, 0],
      [2, 10],
      [8, 0],
    ]) {
      clock.advance(advance);
      await fail(fixture, originId);
    }
    const order = (await store.listCancellations()).map((c) => c.originId);
    expect(order).toEqual([5, 4, 9, 2, 8]);
    const seen: number[] = [];
    let after: string | undefined;
    let pages = 0;
    do {
      const page = await store.listCancellationPage({ limit: 2, ...(after !== undefined && { after }) });
      seen.push(...page.items.map((c) => c.originId));
      after = page.nextCursor ?? undefined;
      pages += 1;
    } while (after !== undefined);
    expect(seen).toEqual(order);
    expect(pages).toBe(3);

    await store.acknowledgeCancellation(4);
    const open = await store.listCancellationPage({ acknowledged: false, limit: 3 });
    expect(open.items.map((c) => c.originId)).toEqual([5, 9, 2]);
    const rest = await store.listCancellationPage({ acknowledged: false, limit: 3, after: open.nextCursor as string });
    expect(rest).toEqual({ items: [expect.objectContaining({ originId: 8 })], nextCursor: null });
    await expect(store.listCancellationPage({ limit: 2, after: '12' })).rejects.toMatchObject({ field: 'after' });
    await expect(store.listCancellationPage({ limit: 0 })).rejects.toMatchObject({ field: 'limit' });
  });
});
