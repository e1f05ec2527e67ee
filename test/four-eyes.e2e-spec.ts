import { describeOnEachEngine } from './support/engines';
import { ADMIN_TOKEN, startTestReconciler, type TestReconciler, transferRequest } from './support/reconciler-harness';

// Four eyes one person cannot fake, replayed as a hostile user would, on each engine: with APPROVAL_REQUIRED_ABOVE
// at 1000, whoever holds the admin token, or an admin key, mints keys for themselves and tries to approve their
// own transfer with them. Each attempt is refused (403, its code), nothing reaches the bank, and the refusal is in
// the audit trail; two people set up as the README says approve each other's transfers.

describeOnEachEngine('four eyes over the admin API', (engine) => {
  let r: TestReconciler;
  const keys: Record<string, string> = {};

  beforeAll(async () => {
    r = await startTestReconciler({
      approvals: { requiredAbove: '1000' },
      databaseUrl: await engine.createDatabaseUrl(),
    });
  });
  afterAll(() => r.close());

  const mint = async (name: string, role: string, token = ADMIN_TOKEN) => {
    const made = await r.request('POST', '/admin/keys', { body: { name, role }, token });
    expect(made.status).toBe(201);
    keys[name] = made.json.key;
    return made.json as { keyId: string; createdBy: string };
  };
  const create = async (originId: number, token: string) => {
    const created = await r.request('POST', '/admin/transfers', {
      body: transferRequest({ originId, amount: '5000.00' }),
      token,
    });
    expect(created.json.status).toBe('AWAITING_APPROVAL');
  };
  const approve = (originId: number, token: string) =>
    r.request('POST', `/admin/transfers/${originId}/approve`, { token });
  const stillWaiting = async (originId: number) => {
    expect((await r.request('GET', `/admin/transfers/${originId}`)).json.status).toBe('AWAITING_APPROVAL');
    expect(r.bank.ledger.entry(originId)).toBeUndefined();
  };

  it('refuses an approver key the admin token minted for the transfer it created, and sends nothing', async () => {
    await create(9001, ADMIN_TOKEN);
    const sock = await mint('sock', 'approver');
    expect(sock.createdBy).toBe('admin-token');
    const refused = await approve(9001, keys.sock as string);
    expect(refused.status).toBe(403);
    expect(refused.json).toMatchObject({
      code: 'APPROVAL_SAME_PERSON',
      originId: 9001,
      creatorKeyId: 'admin-token',
      approverKeyId: sock.keyId,
      relation: 'minted_approver',
    });
    const byToken = await approve(9001, ADMIN_TOKEN);
    expect(byToken.status).toBe(403);
    expect(byToken.json.code).toBe('BOOTSTRAP_CANNOT_APPROVE');
    await stillWaiting(9001);
    const [row] = (await r.request('GET', '/admin/audit?originId=9001&action=transfer.approve&actor=sock')).json.items;
    expect(row).toMatchObject({ outcome: 'refused', statusCode: 403, actor: { name: 'sock' } });
  });

  it('refuses an admin key minting an operator and an approver key for itself, and approving with them', async () => {
    const boss = await mint('boss', 'admin');
    const bossOps = await mint('boss-ops', 'operator', keys.boss);
    await mint('boss-ok', 'approver', keys.boss);
    expect(bossOps.createdBy).toBe(boss.keyId);
    await create(9002, keys['boss-ops'] as string);
    const common = await approve(9002, keys['boss-ok'] as string);
    expect(common.status).toBe(403);
    expect(common.json).toMatchObject({ code: 'APPROVAL_SAME_PERSON', relation: 'common_minter' });
    await create(9003, keys.boss as string);
    expect((await approve(9003, keys['boss-ok'] as string)).json).toMatchObject({ relation: 'minted_approver' });
    // Through a key in between it is the same person still.
    await mint('boss-deputy', 'admin', keys.boss);
    await mint('boss-deputy-ok', 'approver', keys['boss-deputy']);
    expect((await approve(9003, keys['boss-deputy-ok'] as string)).json).toMatchObject({ relation: 'minted_approver' });
    await stillWaiting(9002);
    await stillWaiting(9003);
  });

  it('lets two people approve each other: each minted their working keys with their own admin key', async () => {
    await mint('alice', 'admin');
    await mint('bob', 'admin');
    await mint('alice-ops', 'operator', keys.alice);
    await mint('bob-ok', 'approver', keys.bob);
    await create(9004, keys['alice-ops'] as string);
    const approved = await approve(9004, keys['bob-ok'] as string);
    expect(approved.status).toBe(200);
    expect(approved.json.approval).toMatchObject({ decision: 'approved', decidedBy: { name: 'bob-ok' } });
    expect(r.bank.ledger.entry(9004)).toBeDefined();
    // Who minted each key, in the list and in the audit trail.
    const listed = (await r.request('GET', '/admin/keys')).json as { name: string; createdBy: string }[];
    const minterOf = (name: string) => listed.find((key) => key.name === name)?.createdBy;
    const ids = Object.fromEntries(listed.map((key) => [key.name, (key as unknown as { keyId: string }).keyId]));
    expect([minterOf('alice'), minterOf('alice-ops'), minterOf('bob-ok')]).toEqual(['admin-token', ids.alice, ids.bob]);
    const [minted] = (await r.request('GET', '/admin/audit?action=key.create&actor=bob')).json.items;
    expect(minted.after).toMatchObject({ name: 'bob-ok', createdBy: ids.bob });
  });
});
