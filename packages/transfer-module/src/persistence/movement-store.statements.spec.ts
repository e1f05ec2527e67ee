import type { DataSource } from 'typeorm';
import { sampleIntent } from './testing/sample-intent';
import { storeFixture } from './testing/store-fixture';
import { describeEachEngine, describeOnPostgres } from './testing/test-engines';

const TRANSACTION_CONTROL = /^(BEGIN|START TRANSACTION|COMMIT|ROLLBACK)/;
// SQLite's PRAGMAs around a transaction are the group committer's settings, not the store's statements.
const PRAGMA = /^PRAGMA/;

/** The SQL texts the data source runs during `work`, transaction control left out unless asked for. */
async function statementsOf(
  dataSource: DataSource,
  work: () => Promise<unknown>,
  options: { withControl?: boolean } = {},
): Promise<string[]> {
  const log = jest.spyOn(dataSource.logger, 'logQuery');
  try {
    await work();
    const texts = log.mock.calls.map(([sql]) => sql.trim()).filter((sql) => !PRAGMA.test(sql));
    return options.withControl ? texts : texts.filter((sql) => !TRANSACTION_CONTROL.test(sql));
  } finally {
    log.mockRestore();
  }
}

function firstWords(texts: string[]): string[] {
  return texts.map((sql) => sql.split(/\s/)[0]);
}

describeEachEngine('MovementStore statements on the hot paths', (engine) => {
  it('records an intent in one statement on Postgres (no BEGIN and COMMIT), two on SQLite, the same text for every originId', async () => {
    const { dataSource, store } = await storeFixture(engine);
    const record = (originId: number) => {
      const { intent, fingerprint } = sampleIntent(originId);
      return statementsOf(
        dataSource,
        () => store.recordIntent(intent, fingerprint, { sendNow: true, owner: 'w', leaseMs: 30_000 }),
        { withControl: true },
      );
    };
    const first = await record(1);
    const second = await record(2);
    expect(firstWords(first)).toEqual(engine.kind === 'postgres' ? ['WITH'] : ['BEGIN', 'INSERT', 'INSERT', 'COMMIT']);
    expect(second).toEqual(first);
  });

  it('records a replayed intent without writing: the stored movement is read back, its history unchanged', async () => {
    const { dataSource, store } = await storeFixture(engine);
    const { intent, fingerprint } = sampleIntent(1);
    await store.recordIntent(intent, fingerprint, { sendNow: true, owner: 'w', leaseMs: 30_000 });
    const replay = await store.recordIntent(intent, fingerprint, { sendNow: true, owner: 'w', leaseMs: 30_000 });
    expect(replay.created).toBe(false);
    expect(replay.movement.attempts).toBe(1);
    const count = await dataSource.query('SELECT COUNT(*) AS n FROM "giro_movement_history" WHERE "origin_id" = 1');
    expect(Number(count[0].n)).toBe(1);
  });

  it('applies an answer with a history row in one statement on Postgres, two on SQLite, the same text each time', async () => {
    const { dataSource, store } = await storeFixture(engine);
    const { intent, fingerprint } = sampleIntent(1);
    await store.recordIntent(intent, fingerprint, { sendNow: true, owner: 'w', leaseMs: 30_000 });
    const answer = (nextQueryAtMs: number) =>
      statementsOf(
        dataSource,
        () =>
          store.applyUpdate(1, 'w', {
            patch: { status: 'CREATED', nextQueryAt: new Date(nextQueryAtMs) },
            history: [{ to: 'CREATED', source: 'create' }],
            releaseLease: false,
          }),
        { withControl: true },
      );
    const changed = await answer(1_000);
    const repeated = await answer(2_000);
    expect(firstWords(changed)).toEqual(
      engine.kind === 'postgres' ? ['WITH'] : ['BEGIN', 'INSERT', 'UPDATE', 'COMMIT'],
    );
    expect(repeated).toEqual(changed);
    // One statement is atomic on its own: on Postgres no BEGIN and COMMIT round trips around it; on SQLite a
    // lone write still takes the write lock up front and commits (it shares that commit when others queue).
    const alone = await statementsOf(
      dataSource,
      () => store.applyUpdate(1, 'w', { patch: { lastError: 'timeout' }, countQuery: true, releaseLease: false }),
      { withControl: true },
    );
    expect(firstWords(alone)).toEqual(engine.kind === 'postgres' ? ['UPDATE'] : ['BEGIN', 'UPDATE', 'COMMIT']);
    const quiet = await statementsOf(dataSource, () =>
      store.applyUpdate(1, 'w', { patch: { lastError: 'timeout' }, countQuery: true, releaseLease: true }),
    );
    expect(quiet).toHaveLength(1);
    // The columns named (a prepared statement's result type must not change when a column is added later).
    expect(quiet[0]).toMatch(/^UPDATE .* RETURNING (m\.)?"origin_id", .*(m\.)?"updated_at_ms"$/s);
  });

  it('claims a batch in at most five statements, the same text for every batch of the same size', async () => {
    const fixture = await storeFixture(engine);
    for (let originId = 1; originId <= 4; originId += 1) await fixture.record(originId);
    const claim = (owner: string) =>
      statementsOf(fixture.dataSource, () => fixture.store.claimDue({ owner, limit: 2, leaseMs: 30_000 }));
    const first = await claim('a');
    const second = await claim('b');
    // For each queue, creations then scheduled transfers: the walk of its accounts with due rows and, with fewer
    // than two accounts (no shares to take), its plain time-ordered select; then the lease UPDATE.
    expect(first).toHaveLength(5);
    expect(first[0]).toMatch(/^WITH RECURSIVE "accounts"/);
    expect(first[1]).toMatch(/"status" = 'PENDING'/);
    expect(first[2]).toMatch(/^WITH RECURSIVE "accounts"/);
    expect(first[3]).toMatch(/"status" = 'SCHEDULED'/);
    expect(first[4]).toMatch(/^UPDATE "giro_movements"/);
    expect(second).toEqual(first);
    fixture.clock.advance(1);
    // All leased: both walks and both selects find nothing, then the follow-ups' select (the batch is not full), no
    // UPDATE.
    expect(await claim('c')).toHaveLength(5);
  });
});

describeOnPostgres('MovementStore prepared statements', (engine) => {
  it('prepares the intent’s and the answer’s statements once per connection', async () => {
    const { dataSource, store } = await storeFixture(engine);
    for (let originId = 1; originId <= 3; originId++) {
      const { intent, fingerprint } = sampleIntent(originId);
      await store.recordIntent(intent, fingerprint, { sendNow: true, owner: 'w', leaseMs: 30_000 });
      await store.applyUpdate(originId, 'w', {
        patch: { status: 'CREATED' },
        history: [{ to: 'CREATED', source: 'create' }],
        releaseLease: true,
      });
    }
    // pg-pool hands out the connection released last: the one every statement above ran on, one after the other.
    const prepared: { name: string; statement: string }[] = await dataSource.query(
      `SELECT name, statement FROM pg_prepared_statements ORDER BY statement`,
    );
    expect(prepared).toEqual([
      { name: expect.stringMatching(/^giro_[0-9a-f]{24}$/), statement: expect.stringMatching(/^WITH locked AS/) },
      { name: expect.stringMatching(/^giro_[0-9a-f]{24}$/), statement: expect.stringMatching(/^WITH movement AS/) },
    ]);
  });

  it('goes on with unnamed statements once the server loses one it prepared (a pooler in transaction mode)', async () => {
    const { dataSource, store } = await storeFixture(engine);
    const record = (originId: number) => {
      const { intent, fingerprint } = sampleIntent(originId);
      return store.recordIntent(intent, fingerprint, { sendNow: true, owner: 'w', leaseMs: 30_000 });
    };
    await record(1);
    // The server forgets the statement the client believes prepared, as when a pooler hands the client another
    // server connection (pg-pool hands out the connection released last: the one the intent ran on).
    await dataSource.query('DEALLOCATE ALL');
    expect((await record(2)).created).toBe(true);
    await record(3);
    const prepared = await dataSource.query('SELECT name FROM pg_prepared_statements');
    expect(prepared).toEqual([]);
    const count = await dataSource.query('SELECT COUNT(*) AS n FROM "giro_movement_history"');
    expect(Number(count[0].n)).toBe(3);
  });
});
