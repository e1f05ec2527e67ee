import { createTestDatabase, describeWithPostgres, type TestDatabase } from '@test-support/postgres';
import { DataSource, type QueryRunner } from 'typeorm';
import { ManualClock } from '../domain';
import { dataSourceOptionsFromUrl } from './engine/data-source-options';
import { movementSearchQuery } from './movement-search-query';
import { MovementStore } from './movement-store';
import { TrigramEstimates } from './postgres-text-pattern';
import { runTransferMigrations } from './run-transfer-migrations';
import { CommonTexts } from './sqlite-common-texts';
import { sampleIntent } from './testing/sample-intent';

describeWithPostgres('a search on Postgres (its read transaction)', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  const memory = {
    trigramEstimates: new TrigramEstimates(() => Date.parse('2026-09-01T12:00:00Z')),
    commonTexts: new CommonTexts(),
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    dataSource = await new DataSource(dataSourceOptionsFromUrl(database.url)).initialize();
    await runTransferMigrations(dataSource);
  });
  afterAll(async () => {
    await dataSource?.destroy();
    await database?.drop();
  });

  it('gives the trigram index only the uncommon stretches of a text, and finds the text as written', async () => {
    const store = new MovementStore(dataSource, new ManualClock(Date.parse('2026-09-01T12:00:00Z')));
    const descriptions: [number, string][] = [
      ...Array.from({ length: 400 }, (_, index): [number, string] => [100 + index, 'Sueldo septiembre']),
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
      const query = jest.spyOn(runner, 'query');
      await runner.startTransaction();
      const rows = await movementSearchQuery({ limit: 10, text: 'EMBARGO JUDICIAL' }, memory).rows(runner.manager);
      await runner.commitTransaction();
      expect(rows.map((row) => row.originId)).toEqual([1]);
      // "emb" is in every "septiembre": weighed, then left out of the page's query; the rest goes to the index.
      const page = query.mock.calls
        .map(([sql, parameters]) => ({ sql, parameters }))
        .find(({ sql }) => sql.includes('ORDER BY'));
      expect(page?.sql).toContain('STRPOS');
      expect(page?.parameters).toContain('%mbargo%judicial%');
    } finally {
      await runner.release();
    }
  });

  it('reads the page of one word searched alone from the words that contain it, newest first, each movement once', async () => {
    const clock = new ManualClock(Date.parse('2026-09-02T12:00:00Z'));
    const store = new MovementStore(dataSource, clock);
    const descriptions: [number, string][] = [
      [11, 'Embargo judicial'],
      [12, 'Desembargo parcial'],
      [13, 'Embarcado'],
      [14, 'EMBARGOS y embargo'],
      [15, 'embargo'],
    ];
    for (const [originId, description] of descriptions) {
      const { intent, fingerprint } = sampleIntent(originId, { description });
      await store.recordIntent(intent, fingerprint, { sendNow: false });
      clock.advance(1_000);
    }
    const pages: number[][] = [];
    let after: string | undefined;
    do {
      const page = await store.list({ limit: 2, text: 'embargo', sort: '-createdAt', after });
      pages.push(page.items.map((item) => item.originId));
      after = page.nextCursor ?? undefined;
    } while (after !== undefined);
    // 14 holds two words that contain the text; 1 and 2 (the test above) share a creation time.
    expect(pages).toEqual([
      [15, 14],
      [12, 11],
      [2, 1],
    ]);
    const oldestFirst = await store.list({ limit: 3, text: 'embargo', sort: 'createdAt' });
    expect(oldestFirst.items.map((item) => item.originId)).toEqual([1, 2, 11]);
    const byOriginId = await store.list({ limit: 3, text: 'embargo', after: '2' });
    expect(byOriginId.items.map((item) => item.originId)).toEqual([11, 12, 14]);
    // The page comes from the words' table: without 15's rows there, 15 is not found (its description still holds it).
    await dataSource.query('DELETE FROM "giro_movement_words" WHERE "origin_id" = 15');
    const withoutWords = await store.list({ limit: 2, text: 'embargo', sort: '-createdAt' });
    expect(withoutWords.items.map((item) => item.originId)).toEqual([14, 12]);
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
      await movementSearchQuery({ limit: 10, text: 'alquiler' }, memory).rows(runner.manager);
      expect(await settings(runner)).toEqual({ jit: 'off', workers: '0' });
      await runner.commitTransaction();
      expect(await settings(runner)).toEqual(before);
    } finally {
      await runner.release();
    }
  });
});
