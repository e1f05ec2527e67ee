import { createTestDatabase, describeWithPostgres, type TestDatabase } from '@test-support/postgres';
import { DataSource, type QueryRunner } from 'typeorm';
import { ManualClock } from '../../domain';
import { dataSourceOptionsFromUrl } from '../engine/data-source-options';
import { MovementStore } from '../movement-store';
import { runTransferMigrations } from '../run-transfer-migrations';
import { sampleIntent } from '../testing/sample-intent';
import { checkedSearch } from './checked-search';
import { PostgresMovementSearch } from './postgres-movement-search';

describeWithPostgres('a search on Postgres (its read transaction)', () => {
  let database: TestDatabase;
  let dataSource: DataSource;

  beforeAll(async () => {
    database = await createTestDatabase();
    dataSource = await new DataSource(dataSourceOptionsFromUrl(database.url)).initialize();
    await runTransferMigrations(dataSource);
  });
  afterAll(async () => {
    await dataSource?.destroy();
    await database?.drop();
  });

  it('gives the trigram index the uncommon stretches of a text, and finds the text as written', async () => {
    const store = new MovementStore(dataSource, new ManualClock(Date.parse('2026-09-01T12:00:00Z')));
    const descriptions: [number, string][] = [
      ...Array.from({ length: 2_000 }, (_, index): [number, string] => [100 + index, `Sueldo septiembre ${index}`]),
      [1, 'Embargo judicial'],
      [2, 'embargo'],
      [3, 'Embarcado judicial'],
    ];
    for (const [originId, description] of descriptions) {
      const { intent, fingerprint } = sampleIntent(originId, { description });
      await store.recordIntent(intent, fingerprint, { sendNow: false });
    }
    await dataSource.query('ANALYZE "giro_movements"');
    const runner = dataSource.createQueryRunner();
    try {
      await runner.startTransaction();
      const search = checkedSearch({ limit: 10, text: 'EMBARGO JUDICIAL' });
      const rows = await new PostgresMovementSearch().rows(runner.manager, search);
      expect(rows.map((row) => row.originId)).toEqual([1]);
      const page = jest.spyOn(runner, 'query');
      await new PostgresMovementSearch().rows(runner.manager, search);
      const [sql, parameters] = page.mock.calls.find(([text]) => text.includes('ORDER BY')) ?? [''];
      // "emb" is in every "septiembre": left out of what the index is given; STRPOS checks the whole text.
      expect(parameters).toContain('%mbargo%judicial%');
      expect(sql).toContain('STRPOS');
      await runner.commitTransaction();
    } finally {
      if (runner.isTransactionActive) await runner.rollbackTransaction();
      await runner.release();
    }
  });

  it('runs without JIT and without parallel workers, and leaves the connection as it found it', async () => {
    const settings = async (runner: QueryRunner) =>
      (
        await runner.query(
          "SELECT current_setting('jit') AS jit, current_setting('max_parallel_workers_per_gather') AS workers",
        )
      )[0];
    const runner = dataSource.createQueryRunner();
    try {
      const before = await settings(runner);
      expect(before.workers).not.toBe('0');
      await runner.startTransaction();
      await new PostgresMovementSearch().rows(runner.manager, checkedSearch({ limit: 10, text: 'alquiler' }));
      expect(await settings(runner)).toEqual({ jit: 'off', workers: '0' });
      await runner.commitTransaction();
      expect(await settings(runner)).toEqual(before);
    } finally {
      if (runner.isTransactionActive) await runner.rollbackTransaction();
      await runner.release();
    }
  });
});
