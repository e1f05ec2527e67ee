import { createTestDatabase, describeWithPostgres, type TestDatabase } from '@test-support/postgres';
import { DataSource, type QueryRunner } from 'typeorm';
import { ManualClock } from '../domain';
import { dataSourceOptionsFromUrl } from './data-source-options';
import { movementSearchQuery } from './movement-search-query';
import { MovementStore } from './movement-store';
import { TrigramEstimates } from './postgres-text-pattern';
import { runTransferMigrations } from './run-transfer-migrations';
import { sampleIntent } from './testing/sample-intent';

describeWithPostgres('a search on Postgres (its read transaction)', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  const estimates = new TrigramEstimates(() => Date.parse('2026-09-01T12:00:00Z'));

  beforeAll(async () => {
    database = await createTestDatabase();
    dataSource = await new DataSource(dataSourceOptionsFromUrl(database.url)).initialize();
    await runTransferMigrations(dataSource);
  });
  afterAll(async () => {
    await dataSource?.destroy();
    await database?.drop();
  });

  it('gives the trigram index only the uncommon stretch of a text, and finds the text as written', async () => {
    const store = new MovementStore(dataSource, new ManualClock(Date.parse('2026-09-01T12:00:00Z')));
    const descriptions: [number, string][] = [
      ...Array.from({ length: 400 }, (_, index): [number, string] => [100 + index, 'Sueldo septiembre']),
      [1, 'Embargo judicial'],
      [2, 'embargo'],
      [3, 'Embarcado'],
    ];
    for (const [originId, description] of descriptions) {
      const { intent, fingerprint } = sampleIntent(originId, { description });
      await store.recordIntent(intent, fingerprint, { sendNow: false });
    }
    await dataSource.query('ANALYZE "giro_movements"');
    const runner = dataSource.createQueryRunner();
    try {
      const query = jest.spyOn(runner, 'query');
      await runner.startTransaction();
      const rows = await movementSearchQuery({ limit: 10, text: 'EMBARGO' }, estimates).rows(runner.manager);
      await runner.commitTransaction();
      expect(rows.map((row) => row.originId).sort()).toEqual([1, 2]);
      // "emb" is in every "septiembre": weighed, then left out of the page's query; the others go to the index.
      const page = query.mock.calls
        .map(([sql, parameters]) => ({ sql, parameters }))
        .find(({ sql }) => sql.includes('ORDER BY'));
      expect(page?.sql).toContain('STRPOS');
      expect(page?.parameters).toContain('%mbargo%');
    } finally {
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
      await movementSearchQuery({ limit: 10, text: 'alquiler' }, estimates).rows(runner.manager);
      expect(await settings(runner)).toEqual({ jit: 'off', workers: '0' });
      await runner.commitTransaction();
      expect(await settings(runner)).toEqual(before);
    } finally {
      await runner.release();
    }
  });
});
