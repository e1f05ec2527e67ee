import { createTestDatabase, describeWithPostgres, type TestDatabase } from '@test-support/postgres';
import { DataSource, type QueryRunner } from 'typeorm';
import { ManualClock } from '../domain';
import { dataSourceOptionsFromUrl } from './data-source-options';
import { movementSearchQuery, trigramsOf, uncommonTrigrams } from './movement-search-query';
import { MovementStore } from './movement-store';
import { runTransferMigrations } from './run-transfer-migrations';
import { sampleIntent } from './testing/sample-intent';

describe('trigramsOf (the trigrams of a text pg_trgm indexes)', () => {
  it('takes each word’s trigrams, lowercased, once, in order; a word of under three letters has none', () => {
    expect(trigramsOf('Embargo')).toEqual(['emb', 'mba', 'bar', 'arg', 'rgo']);
    expect(trigramsOf('A-0001-00000042')).toEqual(['000', '001', '004', '042']);
    expect(trigramsOf('de año')).toEqual(['año']);
    expect(trigramsOf('a-b, 12')).toEqual([]);
  });
});

describe('uncommonTrigrams (Postgres: the trigrams its index reads)', () => {
  const MOVEMENTS = 10_000_000;

  it('leaves out a rare word’s common trigram ("emb", as in "septiembre")', () => {
    const estimates = [
      { trigram: 'emb', rows: 1_082_020 },
      { trigram: 'mba', rows: 389 },
      { trigram: 'bar', rows: 389 },
      { trigram: 'arg', rows: 389 },
      { trigram: 'rgo', rows: 389 },
    ];
    expect(uncommonTrigrams(estimates, MOVEMENTS)).toEqual(['mba', 'bar', 'arg', 'rgo']);
  });

  it('keeps every trigram under 1 % of the table, however far from the rarest (the floor is no frequency)', () => {
    const estimates = [
      { trigram: '000', rows: 3_611_947 },
      { trigram: '031', rows: 78_521 },
      { trigram: '316', rows: 389 },
    ];
    expect(uncommonTrigrams(estimates, MOVEMENTS)).toEqual(['031', '316']);
  });

  it('leaves a text whose trigrams are all common to the planner', () => {
    expect(uncommonTrigrams([{ trigram: 'alq', rows: 1_988_987 }], MOVEMENTS)).toBeUndefined();
    expect(uncommonTrigrams([], MOVEMENTS)).toBeUndefined();
  });
});

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

  it('gives the trigram index only the uncommon trigrams of a text, and finds the text as written', async () => {
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
      const rows = await movementSearchQuery({ limit: 10, text: 'EMBARGO' }).rows(runner.manager);
      await runner.commitTransaction();
      expect(rows.map((row) => row.originId).sort()).toEqual([1, 2]);
      // "emb" is in every "septiembre": weighed, then left out of the page's query; the others go to the index.
      const page = query.mock.calls
        .map(([sql, parameters]) => ({ sql, parameters }))
        .find(({ sql }) => sql.includes('ORDER BY'));
      expect(page?.sql).toContain('STRPOS');
      expect(page?.parameters).toEqual(expect.arrayContaining(['%mba%', '%bar%', '%arg%', '%rgo%']));
      expect(page?.parameters).not.toContain('%emb%');
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
      await movementSearchQuery({ limit: 10, text: 'alquiler' }).rows(runner.manager);
      expect(await settings(runner)).toEqual({ jit: 'off', workers: '0' });
      await runner.commitTransaction();
      expect(await settings(runner)).toEqual(before);
    } finally {
      await runner.release();
    }
  });
});
