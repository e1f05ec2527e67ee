import type { DataSource } from 'typeorm';
import { sampleIntent } from './testing/sample-intent';
import { storeFixture } from './testing/store-fixture';
import { describeEachEngine } from './testing/test-engines';

const TRANSACTION_CONTROL = /^(BEGIN|START TRANSACTION|COMMIT|ROLLBACK|PRAGMA)/;

/** The SQL texts the data source runs during `work`, transaction control left out unless asked for. */
async function statementsOf(
  dataSource: DataSource,
  work: () => Promise<unknown>,
  options: { withControl?: boolean } = {},
): Promise<string[]> {
  const log = jest.spyOn(dataSource.logger, 'logQuery');
  try {
    await work();
    const texts = log.mock.calls.map(([sql]) => sql.trim());
    return options.withControl ? texts : texts.filter((sql) => !TRANSACTION_CONTROL.test(sql));
  } finally {
    log.mockRestore();
  }
}

describeEachEngine('MovementStore statements on the hot paths', (engine) => {
  it('records an intent in two statements whose text is the same for every originId (prepared once)', async () => {
    const { dataSource, store } = await storeFixture(engine);
    const record = (originId: number) => {
      const { intent, fingerprint } = sampleIntent(originId);
      return statementsOf(dataSource, () =>
        store.recordIntent(intent, fingerprint, { sendNow: true, owner: 'w', leaseMs: 30_000 }),
      );
    };
    const first = await record(1);
    const second = await record(2);
    expect(first).toHaveLength(2);
    expect(second).toEqual(first);
  });

  it('applies an answer in two statements, one when no history row is written, the same text each time', async () => {
    const { dataSource, store } = await storeFixture(engine);
    const { intent, fingerprint } = sampleIntent(1);
    await store.recordIntent(intent, fingerprint, { sendNow: true, owner: 'w', leaseMs: 30_000 });
    const answer = (nextQueryAtMs: number) =>
      statementsOf(dataSource, () =>
        store.applyUpdate(1, 'w', {
          patch: { status: 'CREATED', nextQueryAt: new Date(nextQueryAtMs) },
          history: [{ to: 'CREATED', source: 'create' }],
          releaseLease: false,
        }),
      );
    const changed = await answer(1_000);
    const repeated = await answer(2_000);
    expect(changed).toHaveLength(2);
    expect(repeated).toEqual(changed);
    // One statement is atomic on its own: on Postgres no BEGIN and COMMIT round trips around it; on SQLite a
    // lone write still takes the write lock up front and commits (it shares that commit when others queue).
    const alone = await statementsOf(
      dataSource,
      () => store.applyUpdate(1, 'w', { patch: { lastError: 'timeout' }, countQuery: true, releaseLease: false }),
      { withControl: true },
    );
    expect(alone.map((sql) => sql.split(/\s/)[0])).toEqual(
      engine.kind === 'postgres' ? ['UPDATE'] : ['BEGIN', 'UPDATE', 'COMMIT'],
    );
    const quiet = await statementsOf(dataSource, () =>
      store.applyUpdate(1, 'w', { patch: { lastError: 'timeout' }, countQuery: true, releaseLease: true }),
    );
    expect(quiet).toHaveLength(1);
    expect(quiet[0]).toMatch(/^UPDATE .* RETURNING (\*|m\."origin_id", .*m\."updated_at_ms")$/s);
  });

  it('claims a batch in at most three statements, the same text for every batch of the same size', async () => {
    const fixture = await storeFixture(engine);
    for (let originId = 1; originId <= 4; originId += 1) await fixture.record(originId);
    const claim = (owner: string) =>
      statementsOf(fixture.dataSource, () => fixture.store.claimDue({ owner, limit: 2, leaseMs: 30_000 }));
    const first = await claim('a');
    const second = await claim('b');
    expect(first).toHaveLength(2); // PENDING ones filled the batch: no second step, then the lease UPDATE
    expect(second).toEqual(first);
    fixture.clock.advance(1);
    expect(await claim('c')).toHaveLength(2); // all leased: both steps find nothing, no UPDATE
  });
});
