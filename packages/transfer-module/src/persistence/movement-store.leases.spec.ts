import { TAKEOVER_AFTER_SILENCE_MS } from './engine/replica-takeover';
import { MovementNotFoundError, StoreArgumentError } from './persistence.errors';
import { ReplicaRegistry } from './replica-registry';
import { storeFixture, T0 } from './testing/store-fixture';
import { describeEachEngine } from './testing/test-engines';

const LEASE = 30_000;

describeEachEngine('MovementStore claims and leases', (engine) => {
  /** Moves a recorded movement to CREATED, due at `dueAt`, through a claim and a fenced update. */
  async function acknowledge(fixture: Awaited<ReturnType<typeof storeFixture>>, originId: number, dueAt: number) {
    const claimed = await fixture.store.claim(originId, 'setup', LEASE);
    expect(claimed).not.toBeNull();
    const result = await fixture.store.applyUpdate(originId, 'setup', {
      patch: { status: 'CREATED', nextQueryAt: new Date(dueAt), lastAnswerAt: fixture.clock.now() },
      history: [{ to: 'CREATED', source: 'create' }],
      releaseLease: true,
    });
    expect(result.applied).toBe(true);
  }

  it('claims due movements, PENDING first, then by nextQueryAt, and leases them', async () => {
    const fixture = await storeFixture(engine);
    const { store, clock } = fixture;
    for (const originId of [1, 2, 3, 4]) await fixture.record(originId);
    await acknowledge(fixture, 1, T0 - 2000); // due, acknowledged, earliest
    await acknowledge(fixture, 2, T0 - 1000); // due, acknowledged
    await acknowledge(fixture, 3, T0 + 60_000); // not due yet
    clock.advance(10);
    await fixture.record(5); // PENDING, due at T0+10

    const claimed = await store.claimDue({ owner: 'sweeper-a', limit: 10, leaseMs: LEASE });
    expect(claimed.map((movement) => [movement.originId, movement.status])).toEqual([
      [4, 'PENDING'],
      [5, 'PENDING'],
      [1, 'CREATED'],
      [2, 'CREATED'],
    ]);
    for (const movement of claimed) {
      expect(movement).toMatchObject({ leaseOwner: 'sweeper-a', leaseExpiresAt: new Date(T0 + 10 + LEASE) });
      expect(await store.findByOriginId(movement.originId)).toMatchObject({
        leaseOwner: 'sweeper-a',
        version: movement.version,
      });
    }
  });

  it('skips leased movements until their lease expires, and honours the limit', async () => {
    const fixture = await storeFixture(engine);
    const { store, clock } = fixture;
    for (const originId of [1, 2, 3]) await fixture.record(originId);
    expect((await store.claimDue({ owner: 'a', limit: 2, leaseMs: LEASE })).map((m) => m.originId)).toEqual([1, 2]);
    expect((await store.claimDue({ owner: 'b', limit: 10, leaseMs: LEASE })).map((m) => m.originId)).toEqual([3]);
    expect(await store.claimDue({ owner: 'c', limit: 10, leaseMs: LEASE })).toEqual([]);
    clock.advance(LEASE);
    const reclaimed = await store.claimDue({ owner: 'c', limit: 10, leaseMs: LEASE });
    expect(reclaimed.map((m) => [m.originId, m.leaseOwner])).toEqual([
      [1, 'c'],
      [2, 'c'],
      [3, 'c'],
    ]);
  });

  it('tells a claim that took over a lease never given back from one that found it free', async () => {
    const fixture = await storeFixture(engine);
    const { store, clock } = fixture;
    for (const originId of [1, 2]) await fixture.record(originId);
    await store.claimDue({ owner: 'stopped', limit: 2, leaseMs: LEASE });
    expect(await store.releaseLease(2, 'stopped')).toBe(true);
    clock.advance(LEASE + 5);

    const taken = await store.claimDue({ owner: 'next', limit: 10, leaseMs: LEASE });
    expect(taken.map((m) => [m.originId, m.abandonedLeaseExpiredAt])).toEqual([
      [1, new Date(T0 + LEASE)],
      [2, null],
    ]);
    await store.releaseAllLeases('next');
    expect(await store.claim(1, 'api', LEASE)).toMatchObject({ abandonedLeaseExpiredAt: null });
    clock.advance(LEASE);
    expect(await store.claim(1, 'api-2', LEASE)).toMatchObject({
      leaseOwner: 'api-2',
      abandonedLeaseExpiredAt: new Date(T0 + 2 * LEASE + 5),
    });
  });

  it('never claims a final movement', async () => {
    const fixture = await storeFixture(engine);
    await fixture.record(1);
    await fixture.store.claim(1, 'w', LEASE);
    await fixture.store.applyUpdate(1, 'w', {
      patch: { status: 'COMPLETED', nextQueryAt: fixture.clock.now() },
      history: [{ to: 'COMPLETED', source: 'create' }],
      releaseLease: true,
    });
    expect(await fixture.store.findByOriginId(1)).toMatchObject({ status: 'COMPLETED', nextQueryAt: null });
    fixture.clock.advance(3_600_000);
    expect(await fixture.store.claimDue({ owner: 'w', limit: 10, leaseMs: LEASE })).toEqual([]);
  });

  it('never gives the same movement to two claimers on two connections', async () => {
    const fixture = await storeFixture(engine);
    const second = await fixture.secondConnection();
    const originIds = Array.from({ length: 40 }, (_, index) => index + 1);
    for (const originId of originIds) await fixture.record(originId);
    const claimers = [
      { store: fixture.store, owner: 'a' },
      { store: second.store, owner: 'b' },
    ];
    const batches = await Promise.all(
      Array.from({ length: 12 }, (_, index) => {
        const { store, owner } = claimers[index % 2];
        return store.claimDue({ owner, limit: 5, leaseMs: LEASE });
      }),
    );
    const claimed = batches.flat();
    expect(claimed.map((movement) => movement.originId).sort((x, y) => x - y)).toEqual(originIds);
    for (const movement of claimed) {
      expect((await fixture.store.findByOriginId(movement.originId))?.leaseOwner).toBe(movement.leaseOwner);
    }
  });

  it('claims one movement on demand unless someone holds it', async () => {
    const fixture = await storeFixture(engine);
    const { store, clock } = fixture;
    await fixture.record(1);
    const mine = await store.claim(1, 'api', LEASE);
    expect(mine).toMatchObject({ originId: 1, leaseOwner: 'api', leaseExpiresAt: new Date(T0 + LEASE) });
    expect(await store.claim(1, 'other', LEASE)).toBeNull();
    expect(await store.claim(1, 'api', LEASE)).toBeNull(); // a lease is exclusive to one piece of work
    clock.advance(LEASE);
    expect(await store.claim(1, 'other', LEASE)).toMatchObject({ leaseOwner: 'other' });
    await expect(store.claim(404, 'api', LEASE)).rejects.toThrow(MovementNotFoundError);
  });

  it('counts a re-send only under a live lease of the caller', async () => {
    const fixture = await storeFixture(engine);
    const { store, clock } = fixture;
    await fixture.record(1);
    expect(await store.markSendAttempt(1, 'w')).toBe(false); // not leased
    await store.claim(1, 'w', LEASE);
    expect(await store.markSendAttempt(1, 'other')).toBe(false);
    expect(await store.markSendAttempt(1, 'w')).toBe(true);
    expect(await store.markSendAttempt(1, 'w')).toBe(true);
    clock.advance(LEASE);
    expect(await store.markSendAttempt(1, 'w')).toBe(false); // expired: someone else may hold it now
    expect(await store.markSendAttempt(404, 'w')).toBe(false);
    expect(await store.findByOriginId(1)).toMatchObject({ attempts: 2 });
  });

  it('refuses to count a send of a final movement', async () => {
    const fixture = await storeFixture(engine);
    await fixture.record(1);
    await fixture.store.claim(1, 'w', LEASE);
    await fixture.store.applyUpdate(1, 'w', {
      patch: { status: 'COMPLETED' },
      history: [{ to: 'COMPLETED', source: 'query' }],
      releaseLease: false,
    });
    expect(await fixture.store.markSendAttempt(1, 'w')).toBe(false);
    expect(await fixture.store.findByOriginId(1)).toMatchObject({ attempts: 0 });
  });

  it('releases one lease, or every lease of an owner', async () => {
    const fixture = await storeFixture(engine);
    const { store } = fixture;
    for (const originId of [1, 2, 3]) await fixture.record(originId);
    await store.claimDue({ owner: 'a', limit: 2, leaseMs: LEASE });
    await store.claimDue({ owner: 'b', limit: 1, leaseMs: LEASE });
    expect(await store.releaseLease(1, 'b')).toBe(false);
    expect(await store.releaseLease(1, 'a')).toBe(true);
    expect(await store.releaseAllLeases('a')).toBe(1);
    expect(await store.releaseAllLeases('a')).toBe(0);
    const owners = await Promise.all([1, 2, 3].map(async (id) => (await store.findByOriginId(id))?.leaseOwner));
    expect(owners).toEqual([null, null, 'b']);
    expect(await store.findByOriginId(1)).toMatchObject({ leaseExpiresAt: null });
  });

  it('refuses bad claim options naming the field', async () => {
    const { store } = await storeFixture(engine);
    await expect(store.claimDue({ owner: 'a', limit: 0, leaseMs: LEASE })).rejects.toMatchObject({
      constructor: StoreArgumentError,
      field: 'limit',
    });
    await expect(store.claimDue({ owner: 'x'.repeat(201), limit: 1, leaseMs: LEASE })).rejects.toMatchObject({
      field: 'owner',
    });
    await expect(store.claimDue({ owner: 'a', limit: 1, leaseMs: -1 })).rejects.toMatchObject({ field: 'leaseMs' });
    await expect(store.claimDue({ owner: 'a', limit: 1, leaseMs: 1, now: new Date(Number.NaN) })).rejects.toMatchObject(
      {
        field: 'now',
      },
    );
  });

  it('takes over the leases of a replica silent for 10 s on Postgres, holding its queries as after an expiry', async () => {
    const fixture = await storeFixture(engine);
    const { store, clock } = fixture;
    const registry = new ReplicaRegistry(fixture.dataSource, clock);
    const LONG_LEASE = 150_000;
    await fixture.record(1);
    await fixture.record(2);
    await registry.beat('replica-a', 5_000);
    await registry.beat('replica-b', 5_000);
    expect((await store.claimDue({ owner: 'replica-a', limit: 10, leaseMs: LONG_LEASE })).length).toBe(2);

    // replica-a stops beating (SIGKILL); replica-b goes on, a beat a second.
    for (let second = 1; second < TAKEOVER_AFTER_SILENCE_MS / 1000; second++) {
      clock.advance(1000);
      await registry.beat('replica-b', 5_000);
    }
    clock.advance(999);
    await registry.beat('replica-b', 5_000);
    expect(await store.claimDue({ owner: 'replica-b', limit: 10, leaseMs: LONG_LEASE })).toEqual([]);
    clock.advance(1);
    await registry.beat('replica-b', 5_000);
    const taken = await store.claimDue({ owner: 'replica-b', limit: 10, leaseMs: LONG_LEASE });
    if (engine.kind === 'sqlite') {
      // One process on SQLite: no heartbeats are read, a lease runs to its expiry.
      expect(taken).toEqual([]);
      return;
    }
    expect(taken.map((movement) => movement.originId)).toEqual([1, 2]);
    // What the silent replica may still learn is bounded by its lease's expiry: the takeover waits from there.
    expect(taken[0].abandonedLeaseExpiredAt).toEqual(new Date(T0 + LONG_LEASE));
    // The silent replica's writes are fenced out.
    expect(await store.markSendAttempt(1, 'replica-a')).toBe(false);
    // A replica that never wrote a heartbeat (none of its rows) keeps its leases to their expiry.
    await fixture.record(3);
    await store.claimDue({ owner: 'no-heartbeat', limit: 10, leaseMs: LONG_LEASE });
    for (let second = 0; second < 30; second++) {
      clock.advance(1000);
      await registry.beat('replica-b', 5_000);
    }
    expect(await store.claimDue({ owner: 'replica-b', limit: 10, leaseMs: LONG_LEASE })).toEqual([]);
  });

  it('lets a manual refresh take over the lease of a replica silent for 10 s on Postgres, waiting as after a takeover', async () => {
    const fixture = await storeFixture(engine);
    const { store, clock } = fixture;
    const registry = new ReplicaRegistry(fixture.dataSource, clock);
    const LONG_LEASE = 150_000;
    await fixture.record(1);
    await registry.beat('replica-a', 5_000);
    await registry.beat('replica-b', 5_000);
    await store.claimDue({ owner: 'replica-a', limit: 10, leaseMs: LONG_LEASE });
    // replica-a stops beating; replica-b goes on, a beat a second.
    for (let second = 1; second < TAKEOVER_AFTER_SILENCE_MS / 1000; second++) {
      clock.advance(1000);
      await registry.beat('replica-b', 5_000);
    }
    clock.advance(999);
    await registry.beat('replica-b', 5_000);
    expect(await store.claim(1, 'replica-b', LONG_LEASE)).toBeNull();
    clock.advance(1);
    await registry.beat('replica-b', 5_000);
    const taken = await store.claim(1, 'replica-b', LONG_LEASE);
    if (engine.kind === 'sqlite') {
      // One process on SQLite: no heartbeats are read, a lease runs to its expiry.
      expect(taken).toBeNull();
      return;
    }
    expect(taken).toMatchObject({ originId: 1, leaseOwner: 'replica-b' });
    expect(taken?.abandonedLeaseExpiredAt).toEqual(new Date(T0 + LONG_LEASE));
    // The silent replica's writes are fenced out.
    expect(await store.markSendAttempt(1, 'replica-a')).toBe(false);
    // replica-b's own lease is live: a second refresh waits for it.
    expect(await store.claim(1, 'replica-b', LONG_LEASE)).toBeNull();
  });

  it('takes over nothing right after a database outage, before it has beaten for 10 s itself', async () => {
    const fixture = await storeFixture(engine);
    const { store, clock } = fixture;
    const registry = new ReplicaRegistry(fixture.dataSource, clock);
    await fixture.record(1);
    await registry.beat('replica-a', 5_000);
    await registry.beat('replica-b', 5_000);
    await store.claimDue({ owner: 'replica-a', limit: 10, leaseMs: 150_000 });
    // 30 s without the database: no one beats. replica-b is back first.
    clock.advance(30_000);
    await registry.beat('replica-b', 5_000);
    expect(await store.claimDue({ owner: 'replica-b', limit: 10, leaseMs: 150_000 })).toEqual([]);
    // replica-a never comes back: once replica-b has beaten for 10 s, its lease is taken over (Postgres).
    for (let second = 0; second < TAKEOVER_AFTER_SILENCE_MS / 1000; second++) {
      clock.advance(1000);
      await registry.beat('replica-b', 5_000);
    }
    const taken = await store.claimDue({ owner: 'replica-b', limit: 10, leaseMs: 150_000 });
    expect(taken.map((movement) => movement.originId)).toEqual(engine.kind === 'postgres' ? [1] : []);
  });
});
