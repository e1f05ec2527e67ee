import { MovementNotFoundError, MovementUpdateRejectedError, StoreArgumentError } from './persistence.errors';
import { type StoreFixture, storeFixture, T0 } from './testing/store-fixture';
import { describeEachEngine } from './testing/test-engines';

const LEASE = 30_000;

const BANK_ANSWER = {
  id: 'mov-1',
  status: 'IN_PROGRESS',
  details: { originId: 1, networkId: 'net-9', extra: [1, 'x'] },
};

describeEachEngine('MovementStore.applyUpdate', (engine) => {
  async function leased(fixture: StoreFixture, originId: number, owner = 'w') {
    await fixture.record(originId);
    expect(await fixture.store.claim(originId, owner, LEASE)).not.toBeNull();
  }

  it('writes the patch and its history under the lease, in one go', async () => {
    const fixture = await storeFixture(engine);
    await leased(fixture, 1);
    fixture.clock.advance(100);
    const result = await fixture.store.applyUpdate(1, 'w', {
      patch: {
        status: 'IN_PROGRESS',
        bankMovementId: 'mov-1',
        networkId: 'net-9',
        network: 'COELSA',
        postingDatetime: '2026-11-21T12:00:00Z',
        lastBankAnswer: BANK_ANSWER,
        lastError: null,
        lastAnswerAt: new Date(T0 + 100),
        nextQueryAt: new Date(T0 + 5100),
      },
      history: [{ to: 'IN_PROGRESS', source: 'create', detail: { warning: 'duplicate' } }],
      countQuery: true,
      releaseLease: true,
    });
    expect(result).toMatchObject({ applied: true, cancellation: null });
    const stored = await fixture.store.findByOriginId(1);
    expect(result.applied && result.movement).toEqual({
      ...stored,
      history: undefined,
      cancellation: undefined,
      resolutions: undefined,
    });
    expect(result.applied && result.history).toEqual(stored?.history.slice(1)); // the rows it appended, as stored
    expect(stored).toMatchObject({
      status: 'IN_PROGRESS',
      bankMovementId: 'mov-1',
      networkId: 'net-9',
      network: 'COELSA',
      postingDatetime: '2026-11-21T12:00:00Z',
      completedDatetime: null,
      lastBankAnswer: BANK_ANSWER,
      lastAnswerAt: new Date(T0 + 100),
      nextQueryAt: new Date(T0 + 5100),
      queries: 1,
      leaseOwner: null,
      leaseExpiresAt: null,
      version: 3, // recorded, claimed, updated
      updatedAt: new Date(T0 + 100),
    });
    expect(stored?.history.map(({ from, to, source, detail, at }) => ({ from, to, source, detail, at }))).toEqual([
      { from: null, to: 'PENDING', source: 'intent', detail: null, at: new Date(T0) },
      {
        from: 'PENDING',
        to: 'IN_PROGRESS',
        source: 'create',
        detail: { warning: 'duplicate' },
        at: new Date(T0 + 100),
      },
    ]);
  });

  it('writes nothing for a stale owner, or once the lease has expired', async () => {
    const fixture = await storeFixture(engine);
    await leased(fixture, 1, 'old-owner');
    fixture.clock.advance(LEASE);
    const before = await fixture.store.findByOriginId(1);
    const update = {
      patch: { status: 'CREATED' as const, lastError: 'late' },
      history: [{ to: 'CREATED' as const, source: 'query' as const }],
      releaseLease: true,
    };
    expect(await fixture.store.applyUpdate(1, 'old-owner', update)).toEqual({ applied: false });
    await fixture.store.claim(1, 'new-owner', LEASE);
    expect(await fixture.store.applyUpdate(1, 'old-owner', update)).toEqual({ applied: false });
    const after = await fixture.store.findByOriginId(1);
    expect(after).toMatchObject({ status: 'PENDING', lastError: null, leaseOwner: 'new-owner' });
    expect(after?.history).toEqual(before?.history);
    expect(after?.version).toBe((before?.version ?? 0) + 1); // only the new claim
  });

  it('keeps a final status: a contradicting update is refused and nothing is written', async () => {
    const fixture = await storeFixture(engine);
    await leased(fixture, 1);
    await fixture.store.applyUpdate(1, 'w', {
      patch: { status: 'COMPLETED', completedDatetime: '2026-11-21T12:00:05Z' },
      history: [{ to: 'COMPLETED', source: 'query' }],
      releaseLease: false,
    });
    await expect(
      fixture.store.applyUpdate(1, 'w', {
        patch: { status: 'FAILED' },
        history: [{ to: 'FAILED', source: 'query' }],
        cancellation: { code: 'X', message: 'late failure' },
        releaseLease: true,
      }),
    ).rejects.toThrow(MovementUpdateRejectedError);
    const stored = await fixture.store.findByOriginId(1);
    expect(stored).toMatchObject({ status: 'COMPLETED', cancellation: null, leaseOwner: 'w' });
    expect(stored?.history.map((row) => row.to)).toEqual(['PENDING', 'COMPLETED']);
  });

  it('appends many history rows in the order given, each from the status before the update', async () => {
    const fixture = await storeFixture(engine);
    await leased(fixture, 1);
    const anomalies = Array.from({ length: 11 }, (_, index) => ({
      to: 'DELAYED' as const,
      source: 'anomaly' as const,
      detail: { index },
    }));
    const result = await fixture.store.applyUpdate(1, 'w', {
      patch: { status: 'CREATED' },
      history: [...anomalies, { to: 'CREATED', source: 'create' }],
      releaseLease: false,
    });
    expect(result).toMatchObject({ applied: true, movement: { status: 'CREATED', version: 3 } });
    const appended = (await fixture.store.findByOriginId(1))?.history.slice(1);
    expect(appended?.map(({ from, to, detail }) => ({ from, to, detail }))).toEqual([
      ...anomalies.map(({ to, detail }) => ({ from: 'PENDING', to, detail })),
      { from: 'PENDING', to: 'CREATED', detail: null },
    ]);
  });

  it('keeps the status when the update repeats it, even with a history row to it', async () => {
    const fixture = await storeFixture(engine);
    await leased(fixture, 1);
    const created = {
      patch: { status: 'CREATED' as const },
      history: [{ to: 'CREATED' as const, source: 'query' as const }],
      releaseLease: false,
    };
    await fixture.store.applyUpdate(1, 'w', created);
    expect(await fixture.store.applyUpdate(1, 'w', created)).toMatchObject({ applied: true });
    const stored = await fixture.store.findByOriginId(1);
    expect(stored?.history.map(({ from, to }) => [from, to])).toEqual([
      [null, 'PENDING'],
      ['PENDING', 'CREATED'],
      ['CREATED', 'CREATED'],
    ]);
  });

  it('records an anomaly without changing the final status', async () => {
    const fixture = await storeFixture(engine);
    await leased(fixture, 1);
    await fixture.store.applyUpdate(1, 'w', {
      patch: { status: 'COMPLETED' },
      history: [{ to: 'COMPLETED', source: 'query' }],
      releaseLease: false,
    });
    const result = await fixture.store.applyUpdate(1, 'w', {
      patch: { lastBankAnswer: { status: 'IN_PROGRESS' } },
      history: [{ to: 'IN_PROGRESS', source: 'anomaly', detail: { reason: 'COMPLETED is final' } }],
      releaseLease: true,
    });
    expect(result.applied).toBe(true);
    const stored = await fixture.store.findByOriginId(1);
    expect(stored?.status).toBe('COMPLETED');
    expect(stored?.history.at(-1)).toMatchObject({ from: 'COMPLETED', to: 'IN_PROGRESS', source: 'anomaly' });
  });

  it('keeps a final movement out of the schedule even when an update gives it a next query time', async () => {
    const fixture = await storeFixture(engine);
    await leased(fixture, 1);
    await fixture.store.applyUpdate(1, 'w', {
      patch: { status: 'COMPLETED' },
      history: [{ to: 'COMPLETED', source: 'query' }],
      releaseLease: false,
    });
    const result = await fixture.store.applyUpdate(1, 'w', {
      patch: { nextQueryAt: new Date(T0 + 5_000) },
      history: [{ to: 'IN_PROGRESS', source: 'anomaly' }],
      releaseLease: true,
    });
    expect(result).toMatchObject({ applied: true, movement: { status: 'COMPLETED', nextQueryAt: null } });
    expect((await fixture.store.findByOriginId(1))?.nextQueryAt).toBeNull();
  });

  it('refuses a status change without its history row, or a status given as an anomaly', async () => {
    const fixture = await storeFixture(engine);
    await leased(fixture, 1);
    await expect(
      fixture.store.applyUpdate(1, 'w', { patch: { status: 'CREATED' }, releaseLease: false }),
    ).rejects.toThrow(/needs a history entry to CREATED/);
    await expect(
      fixture.store.applyUpdate(1, 'w', {
        patch: { status: 'CREATED' },
        history: [{ to: 'CREATED', source: 'anomaly' }],
        releaseLease: false,
      }),
    ).rejects.toThrow(MovementUpdateRejectedError);
    expect(await fixture.store.findByOriginId(1)).toMatchObject({ status: 'PENDING', version: 2 });
  });

  it('refuses bad input naming the field, and an unknown movement', async () => {
    const fixture = await storeFixture(engine);
    await leased(fixture, 1);
    await expect(
      fixture.store.applyUpdate(1, 'w', { patch: { status: 'DONE' as 'CREATED' }, releaseLease: false }),
    ).rejects.toMatchObject({ constructor: StoreArgumentError, field: 'patch.status' });
    await expect(
      fixture.store.applyUpdate(1, 'w', { patch: { nextQueryAt: new Date('nope') }, releaseLease: false }),
    ).rejects.toMatchObject({ field: 'patch.nextQueryAt' });
    await expect(
      fixture.store.applyUpdate(1, 'w', {
        patch: {},
        history: [{ to: 'CREATED', source: 'guess' as 'query' }],
        releaseLease: false,
      }),
    ).rejects.toMatchObject({ field: 'history[0].source' });
    await expect(fixture.store.applyUpdate(404, 'w', { patch: {}, releaseLease: false })).rejects.toThrow(
      MovementNotFoundError,
    );
  });
});
