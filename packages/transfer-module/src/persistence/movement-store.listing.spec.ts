import { completeCbuCvu } from '../domain';
import { engineAdapterFor } from './engine/engine-adapter';
import { StoreArgumentError } from './persistence.errors';
import { storeFixture } from './testing/store-fixture';
import { describeEachEngine } from './testing/test-engines';

describeEachEngine('MovementStore listing and counts', (engine) => {
  it('pages through movements by originId with an opaque cursor', async () => {
    const fixture = await storeFixture(engine);
    for (const originId of [5, 1, 4, 2, 3]) await fixture.record(originId);
    const first = await fixture.store.list({ limit: 2 });
    expect(first.items.map((m) => m.originId)).toEqual([1, 2]);
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = await fixture.store.list({ limit: 2, after: first.nextCursor as string });
    expect(second.items.map((m) => m.originId)).toEqual([3, 4]);
    const last = await fixture.store.list({ limit: 2, after: second.nextCursor as string });
    expect(last).toMatchObject({ items: [{ originId: 5 }], nextCursor: null });
    expect(await fixture.store.list({ limit: 5 })).toMatchObject({ nextCursor: null });
  });

  it('filters by status and counts every status', async () => {
    const fixture = await storeFixture(engine);
    for (const originId of [1, 2, 3]) await fixture.record(originId);
    await fixture.store.claim(2, 'w', 1000);
    await fixture.store.applyUpdate(2, 'w', {
      patch: { status: 'IN_PROGRESS' },
      history: [{ to: 'IN_PROGRESS', source: 'create' }],
      releaseLease: true,
    });
    const inProgress = await fixture.store.list({ status: 'IN_PROGRESS', limit: 10 });
    expect(inProgress.items.map((m) => m.originId)).toEqual([2]);
    expect((await fixture.store.list({ status: 'PENDING', limit: 10 })).items.map((m) => m.originId)).toEqual([1, 3]);
    expect(await fixture.store.countByStatus()).toEqual({
      AWAITING_APPROVAL: 0,
      SCHEDULED: 0,
      PENDING: 2,
      CREATED: 0,
      IN_PROGRESS: 1,
      DELAYED: 0,
      COMPLETED: 0,
      FAILED: 0,
      REJECTED: 0,
      CANCELED: 0,
    });
  });

  it('filters by network id, with its history', async () => {
    const fixture = await storeFixture(engine);
    for (const originId of [1, 2, 3]) await fixture.record(originId);
    for (const [originId, networkId] of [
      [1, 'NET-A'],
      [3, 'NET-B'],
    ] as const) {
      await fixture.store.claim(originId, 'w', 1000);
      await fixture.store.applyUpdate(originId, 'w', {
        patch: { status: 'CREATED', networkId },
        history: [{ to: 'CREATED', source: 'create' }],
        releaseLease: true,
      });
    }
    const found = await fixture.store.listDetails({ networkId: 'NET-B', limit: 10 });
    expect(found.items.map((m) => [m.originId, m.networkId, m.history.length])).toEqual([[3, 'NET-B', 2]]);
    expect((await fixture.store.list({ networkId: 'NET-C', limit: 10 })).items).toEqual([]);
    await expect(fixture.store.list({ networkId: ' ', limit: 1 })).rejects.toMatchObject({
      field: 'networkId',
      rule: 'network_id',
    });
  });

  it('refuses a bad limit, status or cursor naming it', async () => {
    const { store } = await storeFixture(engine);
    await expect(store.list({ limit: 1001 })).rejects.toMatchObject({
      constructor: StoreArgumentError,
      field: 'limit',
    });
    await expect(store.list({ limit: 1, status: 'LOST' as 'FAILED' })).rejects.toMatchObject({ field: 'status' });
    for (const after of ['abc', '0', '1.5', '99999999999999999']) {
      await expect(store.list({ limit: 1, after })).rejects.toMatchObject({ field: 'after', rule: 'cursor' });
    }
  });

  it('totals the scheduled transfers per sending day in Buenos Aires, source account and currency', async () => {
    const fixture = await storeFixture(engine);
    const A = completeCbuCvu('0170001', '0000000000012');
    const B = completeCbuCvu('0170001', '0000000000029');
    const schedule = engineAdapterFor(fixture.dataSource).sql(
      `UPDATE "giro_movements" SET "status" = ?, "execute_at_ms" = ?, "from_address" = ?, "amount_cents" = ?,
        "currency_id" = ? WHERE "origin_id" = ?`,
    );
    const rows = [
      // The last millisecond of the 27th in Buenos Aires (03:00 UTC is its midnight).
      [1, 'SCHEDULED', '2026-12-28T02:59:59.999Z', A, 100, 'ARS'],
      [2, 'SCHEDULED', '2026-12-28T03:00:00.000Z', A, 250, 'ARS'],
      [3, 'SCHEDULED', '2026-12-28T12:00:00.000Z', A, 1_000, 'ARS'],
      [4, 'SCHEDULED', '2026-12-28T12:00:00.000Z', A, 7, 'USD'],
      [5, 'SCHEDULED', '2026-12-28T12:00:00.000Z', B, 50, 'ARS'],
      // Released already: not scheduled any more.
      [6, 'PENDING', '2026-12-28T12:00:00.000Z', A, 9_999, 'ARS'],
    ] as const;
    for (const [originId, status, at, from, cents, currency] of rows) {
      await fixture.record(originId);
      await fixture.dataSource.query(schedule, [status, Date.parse(at), from, cents, currency, originId]);
    }
    const day28 = { executeFrom: new Date('2026-12-28T03:00:00Z'), executeBefore: new Date('2026-12-29T03:00:00Z') };
    expect(await fixture.store.scheduledTotalsByDay({}, 10)).toEqual([
      { day: '2026-12-27', fromAddress: A, currencyId: 'ARS', count: 1, cents: 100n },
      { day: '2026-12-28', fromAddress: A, currencyId: 'ARS', count: 2, cents: 1_250n },
      { day: '2026-12-28', fromAddress: A, currencyId: 'USD', count: 1, cents: 7n },
      { day: '2026-12-28', fromAddress: B, currencyId: 'ARS', count: 1, cents: 50n },
    ]);
    expect(await fixture.store.scheduledTotalsByDay({ ...day28, fromAddress: B }, 10)).toEqual([
      { day: '2026-12-28', fromAddress: B, currencyId: 'ARS', count: 1, cents: 50n },
    ]);
    expect((await fixture.store.scheduledTotalsByDay(day28, 2)).map((total) => total.currencyId)).toEqual([
      'ARS',
      'USD',
    ]);
    await expect(fixture.store.scheduledTotalsByDay({ fromAddress: '123' }, 10)).rejects.toMatchObject({
      field: 'fromAddress',
    });
  });
});
