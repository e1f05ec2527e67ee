import { SubAccountConflictError, SubAccountNotFoundError } from './persistence.errors';
import { storeFixture, T0 } from './testing/store-fixture';
import { describeEachEngine } from './testing/test-engines';

// The client sub-accounts of PSP mode: registered, enabled again by the same holder, never given to another,
// disabled without being deleted.

const CVU = '0000003100010000000001';
const OWNER = '20123456786';

describeEachEngine('MovementStore client sub-accounts', (engine) => {
  it('registers, lists, finds and disables a sub-account; the same holder enables it again', async () => {
    const { store, clock } = await storeFixture(engine);
    expect(await store.findSubAccount(CVU)).toBeNull();
    const registered = await store.registerSubAccount({ address: CVU, ownerPersonId: OWNER, ownerName: 'Ana' });
    expect(registered).toEqual({
      address: CVU,
      ownerPersonId: OWNER,
      ownerName: 'Ana',
      createdAt: new Date(T0),
      disabledAt: null,
    });
    clock.advance(1_000);
    const disabled = await store.disableSubAccount(CVU);
    expect(disabled.disabledAt).toEqual(new Date(T0 + 1_000));
    clock.advance(1_000);
    expect((await store.disableSubAccount(CVU)).disabledAt).toEqual(new Date(T0 + 1_000));
    expect(await store.listSubAccounts()).toEqual([disabled]);

    const again = await store.registerSubAccount({ address: CVU, ownerPersonId: OWNER, ownerName: null });
    expect(again).toEqual({ ...registered, ownerName: null });
    expect(await store.findSubAccount(CVU)).toEqual(again);
  });

  it('never gives a sub-account to another holder, and names an unknown one', async () => {
    const { store } = await storeFixture(engine);
    await store.registerSubAccount({ address: CVU, ownerPersonId: OWNER, ownerName: null });
    await expect(
      store.registerSubAccount({ address: CVU, ownerPersonId: '27123456780', ownerName: null }),
    ).rejects.toBeInstanceOf(SubAccountConflictError);
    await expect(store.disableSubAccount('0000003100010000000099')).rejects.toBeInstanceOf(SubAccountNotFoundError);
    expect((await store.findSubAccount(CVU))?.ownerPersonId).toBe(OWNER);
  });
});
