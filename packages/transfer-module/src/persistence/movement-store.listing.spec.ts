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
});
