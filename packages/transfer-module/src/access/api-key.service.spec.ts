import { setTimeout as sleep } from 'node:timers/promises';
import { apiKeyHash, ManualClock } from '../domain';
import { ApiKeyEntity, ApiKeyNameTakenError, ApiKeyNotFoundError } from '../persistence';
import { T0 } from '../persistence/testing/store-fixture';
import { describeEachEngine } from '../persistence/testing/test-engines';
import { ApiKeyService } from './api-key.service';
import { ApiKeyValidationError } from './api-key-validation.error';

// The admin API's keys on a real database of each engine: created (the key shown once, its hash stored), checked,
// listed without secrets, revoked — and a revocation seen by another data source on the same database.

describeEachEngine('ApiKeyService', (engine) => {
  async function setup(cacheMs?: number) {
    const database = await engine.createDatabase();
    const dataSource = await database.connectMigrated();
    const clock = new ManualClock(T0);
    const keys = new ApiKeyService(dataSource, { clock, ...(cacheMs !== undefined && { cacheMs }) });
    return { database, dataSource, clock, keys };
  }

  it('creates a key shown once, stores only its hash, and authenticates it as its actor', async () => {
    const { dataSource, keys } = await setup();
    const created = await keys.createKey({ name: 'ops', role: 'operator' }, 'admin-token');
    expect(created).toEqual({
      keyId: expect.stringMatching(/^[0-9a-f]{16}$/),
      name: 'ops',
      role: 'operator',
      active: true,
      createdAt: new Date(T0).toISOString(),
      revokedAt: null,
      createdBy: 'admin-token',
      key: expect.stringMatching(/^giro_[0-9a-f]{16}_[0-9a-f]{64}$/),
    });
    const [row] = await dataSource.getRepository(ApiKeyEntity).find();
    expect(row?.keyHash).toBe(apiKeyHash(created.key));
    expect(JSON.stringify(row)).not.toContain(created.key.slice(-64));

    expect(await keys.authenticate(created.key)).toEqual({ keyId: created.keyId, name: 'ops', role: 'operator' });
  });

  it('refuses a wrong secret under a stored id, an unknown id, and text that is not a key', async () => {
    const { keys } = await setup();
    const { key } = await keys.createKey({ name: 'ops', role: 'viewer' });
    const wrongSecret = `${key.slice(0, -1)}${key.endsWith('0') ? '1' : '0'}`;
    expect(await keys.authenticate(wrongSecret)).toBeUndefined();
    expect(await keys.authenticate(`giro_ffffffffffffffff_${key.slice(-64)}`)).toBeUndefined();
    expect(await keys.authenticate('test-admin-token-0123456789')).toBeUndefined();
  });

  it('lists every key, revoked ones included, without a secret or a hash', async () => {
    const { keys, clock } = await setup();
    const first = await keys.createKey({ name: 'alice', role: 'admin' });
    clock.advance(1_000);
    const second = await keys.createKey({ name: 'bob', role: 'approver' }, first.keyId);
    clock.advance(1_000);
    await keys.revokeKey('alice');
    const listed = await keys.listKeys();
    expect(listed.map((key) => [key.name, key.role, key.active, key.revokedAt, key.createdBy])).toEqual([
      ['alice', 'admin', false, new Date(T0 + 2_000).toISOString(), null],
      ['bob', 'approver', true, null, first.keyId],
    ]);
    const text = JSON.stringify(listed);
    for (const created of [first, second]) {
      expect(text).not.toContain(created.key);
      expect(text).not.toContain(apiKeyHash(created.key));
    }
    expect(Object.keys(listed[0] as object).sort()).toEqual([
      'active',
      'createdAt',
      'createdBy',
      'keyId',
      'name',
      'revokedAt',
      'role',
    ]);
  });

  it('refuses a revoked key at once on the replica that revoked it; revoking again keeps the first time', async () => {
    const { keys, clock } = await setup();
    const { key } = await keys.createKey({ name: 'ops', role: 'operator' });
    expect(await keys.authenticate(key)).toBeDefined();
    const revoked = await keys.revokeKey('ops');
    expect(revoked).toMatchObject({ name: 'ops', active: false, revokedAt: new Date(T0).toISOString() });
    expect(await keys.authenticate(key)).toBeUndefined();
    clock.advance(5_000);
    expect((await keys.revokeKey('ops')).revokedAt).toBe(new Date(T0).toISOString());
  });

  it('refuses a key revoked through another data source once its cache time passes, without a restart', async () => {
    const { database, keys } = await setup(200);
    const { key } = await keys.createKey({ name: 'ops', role: 'operator' });
    expect(await keys.authenticate(key)).toBeDefined();
    const other = new ApiKeyService(await database.connect());
    await other.revokeKey('ops');
    // That it is at most the cache time is ApiKeyCache's spec, on a fake clock; here the bound is only generous
    // (real time, on a machine that may be loaded).
    const deadline = Date.now() + 10_000;
    while ((await keys.authenticate(key)) !== undefined) {
      if (Date.now() > deadline) throw new Error('the revoked key was still accepted after 10 s');
      await sleep(20);
    }
  });

  it('never gives a name to a second key, a revoked one included', async () => {
    const { keys } = await setup();
    await keys.createKey({ name: 'ops', role: 'operator' });
    await expect(keys.createKey({ name: 'ops', role: 'viewer' })).rejects.toBeInstanceOf(ApiKeyNameTakenError);
    await keys.revokeKey('ops');
    await expect(keys.createKey({ name: 'ops', role: 'viewer' })).rejects.toThrow(
      'an API key named "ops" already exists',
    );
    expect((await keys.listKeys()).length).toBe(1);
  });

  it('gives a name once when two data sources create it at the same time', async () => {
    const { database, keys } = await setup();
    const other = new ApiKeyService(await database.connect());
    const results = await Promise.allSettled([
      keys.createKey({ name: 'race', role: 'viewer' }),
      other.createKey({ name: 'race', role: 'admin' }),
    ]);
    expect(results.map((result) => result.status).sort()).toEqual(['fulfilled', 'rejected']);
    const refused = results.find((result) => result.status === 'rejected') as PromiseRejectedResult;
    expect(refused.reason).toBeInstanceOf(ApiKeyNameTakenError);
    expect((await keys.listKeys()).length).toBe(1);
  });

  it('names each bad field and its rule, and stores nothing', async () => {
    const { keys } = await setup();
    const refusal = (input: unknown) =>
      keys.createKey(input).then(
        () => undefined,
        (error: unknown) => {
          expect(error).toBeInstanceOf(ApiKeyValidationError);
          return (error as ApiKeyValidationError).violations.map(({ field, rule }) => `${field}:${rule}`);
        },
      );
    expect(await refusal({ name: 'ops', role: 'root' })).toEqual(['role:role']);
    expect(await refusal({ name: 'Ops!', role: 'viewer' })).toEqual(['name:key_name']);
    expect(await refusal({ role: 'viewer' })).toEqual(['name:key_name']);
    expect(await refusal({ name: 'admin-token', role: 'admin' })).toEqual(['name:key_name']);
    expect(await refusal({ name: 'ops', role: 'viewer', secret: 'x' })).toEqual(['secret:unknown_field']);
    expect(await refusal('ops')).toEqual([':type']);
    await expect(keys.createKey({ name: 'ops', role: 'root' })).rejects.toThrow(
      'role must be one of viewer, operator, approver, admin',
    );
    expect(await keys.listKeys()).toEqual([]);
  });

  it('names an unknown key on revoke', async () => {
    const { keys } = await setup();
    await expect(keys.revokeKey('nobody')).rejects.toBeInstanceOf(ApiKeyNotFoundError);
    await expect(keys.revokeKey('not  a name')).rejects.toBeInstanceOf(ApiKeyValidationError);
  });
});
