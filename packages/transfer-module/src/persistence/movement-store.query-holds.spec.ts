import { StoreArgumentError } from './persistence.errors';
import { storeFixture, T0 } from './testing/store-fixture';
import { describeEachEngine } from './testing/test-engines';

// A bank query made without the movement's lease (a lookup by another name whose answer named it): counted,
// queries held back, the DEBIN id kept — without a fence, by writes that never undo the lease owner's.

const LEASE = 30_000;

describeEachEngine('MovementStore queries made without the lease', (engine) => {
  it('counts the query, holds queries back to the later of two holds, and keeps the first DEBIN id', async () => {
    const { store, record } = await storeFixture(engine);
    await record(7);
    expect(await store.claim(7, 'owner', LEASE)).not.toBeNull();

    expect(await store.recordUnleasedQuery(7, { heldUntil: new Date(T0 + 5_000), debinId: 'DEBIN-7' })).toBe(true);
    expect(await store.recordUnleasedQuery(7, { heldUntil: new Date(T0 + 1_000), debinId: 'DEBIN-other' })).toBe(true);
    expect(await store.findByOriginId(7)).toMatchObject({
      queries: 2,
      queriesHeldUntil: new Date(T0 + 5_000),
      debinId: 'DEBIN-7',
      leaseOwner: 'owner', // the lease stays its owner's
    });

    // The owner's fenced write still applies, and leaves the hold and the DEBIN id as they are.
    const written = await store.applyUpdate(7, 'owner', { patch: { nextQueryAt: new Date(T0) }, releaseLease: true });
    expect(written).toMatchObject({
      applied: true,
      movement: { queriesHeldUntil: new Date(T0 + 5_000), debinId: 'DEBIN-7' },
    });
    expect((await store.list({ debinId: 'DEBIN-7', limit: 5 })).items.map((row) => row.originId)).toEqual([7]);
  });

  it('says when the movement is not stored, and names a bad argument', async () => {
    const { store } = await storeFixture(engine);
    expect(await store.recordUnleasedQuery(8, { heldUntil: new Date(T0) })).toBe(false);
    await expect(store.recordUnleasedQuery(8, { heldUntil: new Date(Number.NaN) })).rejects.toMatchObject({
      constructor: StoreArgumentError,
      field: 'heldUntil',
    });
    await expect(store.list({ debinId: '', limit: 1 })).rejects.toMatchObject({ field: 'debinId' });
  });
});
