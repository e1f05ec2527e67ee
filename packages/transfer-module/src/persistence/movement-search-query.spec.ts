import { createTestDatabase, describeWithPostgres, type TestDatabase } from '@test-support/postgres';
import { DataSource, type QueryRunner } from 'typeorm';
import { dataSourceOptionsFromUrl } from './data-source-options';
import { movementSearchQuery, wordsForIndex } from './movement-search-query';
import { runTransferMigrations } from './run-transfer-migrations';

describe('wordsForIndex (Postgres: the words of a text its trigram index reads)', () => {
  const MOVEMENTS = 10_000_000;

  it('gives the index the rarest word of an invoice number, not the part every invoice shares', () => {
    const estimates = [
      { word: '0001', rows: 3_448_426 },
      { word: '00123456', rows: 379 },
    ];
    expect(wordsForIndex(estimates, MOVEMENTS)).toEqual(['00123456']);
  });

  it('keeps every word within ten times the rarest', () => {
    const estimates = [
      { word: 'embargo', rows: 379 },
      { word: 'marzo', rows: 3_790 },
      { word: 'alquiler', rows: 1_988_987 },
    ];
    expect(wordsForIndex(estimates, MOVEMENTS)).toEqual(['embargo', 'marzo']);
  });

  it('leaves a text whose words are all common to the planner', () => {
    const estimates = [
      { word: 'alquiler', rows: 1_988_987 },
      { word: 'marzo', rows: 379_606 },
    ];
    expect(wordsForIndex(estimates, MOVEMENTS)).toBeUndefined();
    expect(wordsForIndex([], MOVEMENTS)).toBeUndefined();
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
