import { AnomalyAlreadyResolvedError, AnomalyNotFoundError, StoreArgumentError } from './persistence.errors';
import { queriesOverlappingOnAConnection } from './testing/overlapping-queries';
import { type StoreFixture, storeFixture, T0 } from './testing/store-fixture';
import { describeEachEngine } from './testing/test-engines';

const LEASE = 30_000;
const OPS = { keyId: '0123456789abcdef', name: 'ops' };

describeEachEngine('MovementStore anomalies', (engine) => {
  /** A COMPLETED movement, then `count` answers claiming FAILED: anomalies, recorded and never applied. */
  async function completedWithAnomalies(fixture: StoreFixture, originId: number, count: number): Promise<number[]> {
    const { store, clock } = fixture;
    await fixture.record(originId);
    await store.claim(originId, 'w', LEASE);
    await store.applyUpdate(originId, 'w', {
      patch: { status: 'COMPLETED' },
      history: [{ to: 'COMPLETED', source: 'query' }],
      releaseLease: true,
    });
    const ids: number[] = [];
    for (let index = 0; index < count; index += 1) {
      clock.advance(10);
      await store.claim(originId, 'w', LEASE);
      const result = await store.applyUpdate(originId, 'w', {
        patch: {},
        history: [{ to: 'FAILED', source: 'anomaly', detail: { reason: `claim ${index}` } }],
        releaseLease: true,
      });
      if (!result.applied) throw new Error('not applied');
      ids.push(result.history[0].id);
    }
    return ids;
  }

  it('lists anomalies unresolved first, then newest first, a page at a time', async () => {
    const fixture = await storeFixture(engine);
    const { store } = fixture;
    const [a1, a2] = await completedWithAnomalies(fixture, 1, 2);
    const [b1, b2, b3] = await completedWithAnomalies(fixture, 2, 3);
    await store.resolveAnomaly(b2, { note: 'seen', by: OPS });
    await store.resolveAnomaly(a1, { note: 'seen too', by: OPS });

    const all = await store.listAnomalies({ limit: 10 });
    expect(all.items.map((anomaly) => anomaly.id)).toEqual([b3, b1, a2, b2, a1]);
    expect(all.nextCursor).toBeNull();
    expect(all.items[0]).toMatchObject({
      originId: 2,
      status: 'COMPLETED',
      claimed: 'FAILED',
      detail: { reason: 'claim 2' },
      resolution: null,
    });

    // Pages of two cross from the unresolved to the resolved ones without a gap or a repeat.
    const seen: number[] = [];
    let after: string | undefined;
    do {
      const page = await store.listAnomalies({ limit: 2, ...(after !== undefined && { after }) });
      seen.push(...page.items.map((anomaly) => anomaly.id));
      after = page.nextCursor ?? undefined;
    } while (after !== undefined);
    expect(seen).toEqual([b3, b1, a2, b2, a1]);

    expect((await store.listAnomalies({ limit: 10, resolved: false })).items.map((a) => a.id)).toEqual([b3, b1, a2]);
    expect((await store.listAnomalies({ limit: 10, resolved: true })).items.map((a) => a.id)).toEqual([b2, a1]);
    expect((await store.listAnomalies({ limit: 10, originId: 1 })).items.map((a) => a.id)).toEqual([a2, a1]);
    const resolvedPage = await store.listAnomalies({ limit: 1, resolved: true });
    expect(
      (await store.listAnomalies({ limit: 1, resolved: true, after: resolvedPage.nextCursor as string })).items,
    ).toEqual([expect.objectContaining({ id: a1 })]);
    expect(await store.countUnresolvedAnomalies()).toBe(3);
  });

  it('resolves an anomaly once, recording who, when and the note, and leaves the movement as it was', async () => {
    const fixture = await storeFixture(engine);
    const { store, clock } = fixture;
    const [id] = await completedWithAnomalies(fixture, 7, 1);
    const before = await store.findByOriginId(7);
    clock.advance(1_000);
    const resolved = await store.resolveAnomaly(id, { note: 'the bank confirmed it paid', by: OPS });
    expect(resolved).toMatchObject({
      id,
      originId: 7,
      resolution: { historyId: id, at: new Date(clock.now().getTime()), by: OPS, note: 'the bank confirmed it paid' },
    });

    const second = store.resolveAnomaly(id, { note: 'again', by: { keyId: 'admin-token', name: 'admin-token' } });
    await expect(second).rejects.toThrow(AnomalyAlreadyResolvedError);
    await expect(second).rejects.toMatchObject({ anomalyId: id, resolution: { note: 'the bank confirmed it paid' } });

    const after = await store.findByOriginId(7);
    expect(after).toMatchObject({ status: 'COMPLETED', version: before?.version, updatedAt: before?.updatedAt });
    expect(after?.history).toEqual(before?.history);
    expect(after?.resolutions).toEqual([resolved.resolution]);
    expect(await store.countUnresolvedAnomalies()).toBe(0);
  });

  it('lets two operators racing on one anomaly resolve it once', async () => {
    const fixture = await storeFixture(engine);
    const [id] = await completedWithAnomalies(fixture, 8, 1);
    const other = await fixture.secondConnection();
    const results = await Promise.allSettled([
      fixture.store.resolveAnomaly(id, { note: 'first', by: OPS }),
      other.store.resolveAnomaly(id, { note: 'second', by: { keyId: 'fedcba9876543210', name: 'other' } }),
    ]);
    expect(results.map((result) => result.status).sort()).toEqual(['fulfilled', 'rejected']);
    const refused = results.find((result) => result.status === 'rejected') as PromiseRejectedResult;
    expect(refused.reason).toBeInstanceOf(AnomalyAlreadyResolvedError);
    expect((await fixture.store.listAnomalies({ limit: 5, resolved: true })).items).toHaveLength(1);
  });

  it('refuses a bad note, actor or id, naming the field and the rule, and writes nothing', async () => {
    const fixture = await storeFixture(engine);
    const { store } = fixture;
    const [id] = await completedWithAnomalies(fixture, 9, 1);
    const refusal = (note: unknown, by: unknown = OPS) =>
      store.resolveAnomaly(id, { note, by } as { note: string; by: typeof OPS }).then(
        () => undefined,
        (error: StoreArgumentError) => ({ field: error.field, rule: error.rule }),
      );
    expect(await refusal('')).toEqual({ field: 'note', rule: 'length' });
    expect(await refusal('   ')).toEqual({ field: 'note', rule: 'length' });
    expect(await refusal('x'.repeat(501))).toEqual({ field: 'note', rule: 'length' });
    expect(await refusal(42)).toEqual({ field: 'note', rule: 'type' });
    expect(await refusal('a\u0000b')).toEqual({ field: 'note', rule: 'characters' });
    expect(await refusal('fine', { keyId: '', name: 'x' })).toEqual({ field: 'by.keyId', rule: 'length' });
    expect(await refusal('fine', null)).toEqual({ field: 'by.keyId', rule: 'type' });
    await expect(store.resolveAnomaly(0, { note: 'x', by: OPS })).rejects.toMatchObject({ field: 'id' });
    await expect(store.listAnomalies({ limit: 5, after: 'nope' })).rejects.toMatchObject({ field: 'after' });
    expect(await store.countUnresolvedAnomalies()).toBe(1);

    // Line breaks and 500 characters (counted as characters, not UTF-16 units) are a fine note.
    const note = `${'é'.repeat(248)}\n${'😀'.repeat(251)}`;
    expect((await store.resolveAnomaly(id, { note, by: OPS })).resolution?.note).toBe(note);
  });

  it('answers AnomalyNotFoundError for a history row that is no anomaly, or none at all', async () => {
    const fixture = await storeFixture(engine);
    const { history } = (await fixture.record(10)) as { history: { id: number }[] };
    await expect(fixture.store.resolveAnomaly(history[0].id, { note: 'x', by: OPS })).rejects.toThrow(
      AnomalyNotFoundError,
    );
    await expect(fixture.store.resolveAnomaly(999_999, { note: 'x', by: OPS })).rejects.toMatchObject({
      anomalyId: 999_999,
    });
  });

  it('tells when the oldest movement that is not final was created', async () => {
    const fixture = await storeFixture(engine);
    const { store, clock } = fixture;
    expect(await store.oldestNonFinalCreatedAt()).toBeNull();
    await completedWithAnomalies(fixture, 1, 0); // final: not counted
    clock.advance(100);
    await fixture.record(2);
    clock.advance(100);
    await fixture.record(3);
    expect(await store.oldestNonFinalCreatedAt()).toEqual(new Date(T0 + 100));
  });

  it("asks a read transaction's connection one query at a time", async () => {
    const fixture = await storeFixture(engine);
    await fixture.record(1);
    await fixture.record(2);
    const overlapping = queriesOverlappingOnAConnection();
    try {
      expect(await fixture.store.oldestNonFinal()).toMatchObject({ originId: 1 });
    } finally {
      overlapping.stop();
    }
    expect(overlapping.queries).toEqual([]);
  });
});
