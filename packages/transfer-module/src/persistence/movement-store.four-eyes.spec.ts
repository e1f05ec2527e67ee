import { ApiKeyStore } from './api-key-store';
import { ApprovalSamePersonError, BootstrapApprovalError, SelfApprovalError } from './persistence.errors';
import { sampleIntent } from './testing/sample-intent';
import { type StoreFixture, storeFixture, T0 } from './testing/store-fixture';
import { describeEachEngine } from './testing/test-engines';

// Four eyes in the store: an approval counts only from a key that is not the creator's, was not minted by it, did
// not mint it, and does not share a minter with it — the minters read from giro_api_keys in the approval's
// transaction.

const HOUR = 3_600_000;

describeEachEngine('MovementStore four eyes', (engine) => {
  let fixture: StoreFixture;
  let keys: ApiKeyStore;

  beforeEach(async () => {
    fixture = await storeFixture(engine);
    keys = new ApiKeyStore(fixture.dataSource, fixture.clock);
  });

  /** Stores a key `name` (its id too) minted by `createdBy`. */
  async function mint(name: string, createdBy: string | null) {
    await keys.create({ keyId: name, name, role: 'admin', keyHash: '0'.repeat(64), createdBy });
    return { keyId: name, name };
  }

  function awaitingBy(originId: number, by: { keyId: string; name: string }) {
    const { intent, fingerprint } = sampleIntent(originId, { amount: '5000.00' });
    return fixture.store.recordIntent(intent, fingerprint, {
      sendNow: false,
      awaitingApproval: { expiresAtMs: T0 + HOUR },
      by,
    });
  }

  const refusal = (originId: number, by: { keyId: string; name: string }) =>
    fixture.store.decideApproval(originId, { kind: 'approve', by }).then(
      () => undefined,
      (error: unknown) => error,
    );

  it('refuses the bootstrap token approving, even what another key created', async () => {
    await awaitingBy(1, await mint('ops', 'cli'));
    const error = await refusal(1, { keyId: 'admin-token', name: 'admin-token' });
    expect(error).toBeInstanceOf(BootstrapApprovalError);
    expect((error as BootstrapApprovalError).code).toBe('BOOTSTRAP_CANNOT_APPROVE');
    expect((await fixture.store.findByOriginId(1))?.status).toBe('AWAITING_APPROVAL');
  });

  it('refuses a key the creator minted, and the key that minted the creator', async () => {
    const admin = { keyId: 'admin-token', name: 'admin-token' };
    await awaitingBy(1, admin);
    const sock = await mint('sock', 'admin-token');
    expect(await refusal(1, sock)).toMatchObject({
      code: 'APPROVAL_SAME_PERSON',
      relation: 'minted_approver',
      creatorKeyId: 'admin-token',
      approverKeyId: 'sock',
    });
    const boss = await mint('boss', 'cli');
    await awaitingBy(2, await mint('ops', 'boss'));
    expect(await refusal(2, boss)).toMatchObject({ relation: 'minted_by_approver' });
    expect((await fixture.store.findByOriginId(2))?.status).toBe('AWAITING_APPROVAL');
  });

  it('refuses two keys one key minted, and two keys one credential minted', async () => {
    await mint('boss', 'cli');
    await awaitingBy(1, await mint('ops', 'boss'));
    const error = await refusal(1, await mint('sock', 'boss'));
    expect(error).toBeInstanceOf(ApprovalSamePersonError);
    expect(error).toMatchObject({ relation: 'common_minter', httpStatusCode: 403 });
    await awaitingBy(2, await mint('token-ops', 'admin-token'));
    expect(await refusal(2, await mint('token-sock', 'admin-token'))).toMatchObject({ relation: 'common_minter' });
    // Through a key in between: the chain is followed to its root.
    await awaitingBy(3, await mint('deep-ops', 'ops'));
    expect(await refusal(3, await mint('deep-sock', 'sock'))).toMatchObject({ relation: 'common_minter' });
  });

  it('still refuses the creator itself', async () => {
    const ops = await mint('ops', 'cli');
    await awaitingBy(1, ops);
    expect(await refusal(1, ops)).toBeInstanceOf(SelfApprovalError);
  });

  it('lets a second person approve: two lineages that meet only at the bootstrap credentials', async () => {
    await mint('alice', 'cli');
    await mint('bob', 'cli');
    await awaitingBy(1, await mint('alice-ops', 'alice'));
    const { movement } = await fixture.store.decideApproval(1, { kind: 'approve', by: await mint('bob-ok', 'bob') });
    expect(movement.status).toBe('PENDING');
  });

  it('lets keys whose minter is unknown approve each other: the rule cannot see further than giro recorded', async () => {
    await awaitingBy(1, await mint('old-ops', null));
    const { movement } = await fixture.store.decideApproval(1, { kind: 'approve', by: await mint('old-ok', null) });
    expect(movement.status).toBe('PENDING');
  });
});
