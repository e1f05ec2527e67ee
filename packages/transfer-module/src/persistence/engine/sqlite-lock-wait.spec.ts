import { setTimeout as sleep } from 'node:timers/promises';
import Database from 'better-sqlite3';
import type { DataSource, EntityManager } from 'typeorm';
import { isDatabaseUnavailable } from '../database-unavailable';
import { OriginIdCounterEntity } from '../entities';
import { describeOnSqlite, type EngineDatabase } from '../testing/test-engines';
import { transactionsFor } from './engine-adapter';

// The wait itself (its pauses, its deadline, giving up at once after a wait ran out) is proven with a fake clock in
// sqlite-lock-wait-clock.spec.ts; here, against a real second process, what only a real file lock shows.

const insertCounter = (name: string) => async (manager: EntityManager) => {
  await manager.createQueryBuilder().insert().into(OriginIdCounterEntity).values({ name, nextValue: 1 }).execute();
  return name;
};

describeOnSqlite('the write lock held by another process', (engine) => {
  let database: EngineDatabase;
  let other: Database.Database;

  beforeEach(async () => {
    database = await engine.createDatabase();
    other = new Database(database.url.slice('sqlite:'.length));
  });
  afterEach(() => other.close());

  const connection = (dataSource: DataSource) =>
    (dataSource.driver as unknown as { databaseConnection: Database.Database }).databaseConnection;
  const busyTimeout = (dataSource: DataSource) => connection(dataSource).pragma('busy_timeout', { simple: true });
  const stored = async (dataSource: DataSource) =>
    (await dataSource.getRepository(OriginIdCounterEntity).find({ order: { name: 'ASC' } })).map((row) => row.name);
  /** Counts the BEGIN IMMEDIATE statements the data source issues from now on. */
  const countBegins = (dataSource: DataSource) => {
    const logQuery = jest.spyOn(dataSource.logger, 'logQuery');
    return () => logQuery.mock.calls.filter(([sql]) => sql === 'BEGIN IMMEDIATE').length;
  };

  it('is waited for on the event loop: the process goes on, and takes the lock once the other lets it go', async () => {
    // A wait inside the driver would stop this process for all of busy_timeout: the other's COMMIT below, made
    // from this process's event loop, could then only run after the write had failed.
    const dataSource = await database.connectMigrated({ sqliteBusyTimeoutMs: 5_000 });
    const transactions = transactionsFor(dataSource);
    const begins = countBegins(dataSource);
    other.exec('BEGIN EXCLUSIVE');

    const write = transactions.write(insertCounter('first'));
    // Bounded wait on state: the write has met the lock and is trying again.
    for (let turn = 0; begins() < 2 && turn < 2_000; turn++) await sleep(1);
    expect(begins()).toBeGreaterThanOrEqual(2);
    other.exec('COMMIT');

    await expect(write).resolves.toBe('first');
    expect(await stored(dataSource)).toEqual(['first']);
    // The connection's own busy_timeout is kept for statements outside giro's transactions.
    expect(busyTimeout(dataSource)).toBe(5_000);
  }, 15_000);

  it('is refused as unavailable after busy_timeout; then refuses the next writes at their first try, until the lock is free', async () => {
    const dataSource = await database.connectMigrated({ sqliteBusyTimeoutMs: 100 });
    const transactions = transactionsFor(dataSource);
    other.exec('BEGIN EXCLUSIVE');

    const first = await transactions.write(insertCounter('first')).catch((error: unknown) => error);
    expect(isDatabaseUnavailable(first)).toBe(true);
    expect(busyTimeout(dataSource)).toBe(100);

    const begins = countBegins(dataSource);
    const next = await transactions.write(insertCounter('next')).catch((error: unknown) => error);
    expect((next as { driverError?: { code?: string } }).driverError?.code).toMatch(/^SQLITE_BUSY/);
    expect(begins()).toBe(1);

    // Reads go on beside the other writer (WAL).
    await expect(
      transactions.read((manager) => manager.query('SELECT count(*) AS n FROM giro_origin_id_counter')),
    ).resolves.toEqual([{ n: 0 }]);

    other.exec('COMMIT');
    await expect(transactions.write(insertCounter('after'))).resolves.toBe('after');
    // Nothing refused was half-written.
    expect(await stored(dataSource)).toEqual(['after']);
  });
});
