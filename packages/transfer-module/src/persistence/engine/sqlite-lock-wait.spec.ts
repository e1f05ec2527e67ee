import Database from 'better-sqlite3';
import type { DataSource, EntityManager } from 'typeorm';
import { isDatabaseUnavailable } from '../database-unavailable';
import { OriginIdCounterEntity } from '../entities';
import { describeOnSqlite } from '../testing/test-engines';
import { transactionsFor } from './transactions';

const BUSY_TIMEOUT_MS = 400;

const insertCounter = (name: string) => async (manager: EntityManager) => {
  await manager.createQueryBuilder().insert().into(OriginIdCounterEntity).values({ name, nextValue: 1 }).execute();
  return name;
};

/** Runs `work`, counting the ticks of a 10 ms timer meanwhile: how free the event loop stayed. */
async function watched<T>(work: () => Promise<T>) {
  let ticks = 0;
  const timer = setInterval(() => ticks++, 10);
  const started = performance.now();
  const outcome = await work().catch((error: unknown) => ({ error }));
  const ms = performance.now() - started;
  clearInterval(timer);
  return { ms, ticks, outcome };
}

describeOnSqlite('the write lock held by another process', (engine) => {
  let dataSource: DataSource;
  let other: Database.Database;

  beforeEach(async () => {
    const database = await engine.createDatabase();
    dataSource = await database.connectMigrated({ sqliteBusyTimeoutMs: BUSY_TIMEOUT_MS });
    other = new Database(database.url.slice('sqlite:'.length));
  });
  afterEach(() => other.close());

  const connection = () =>
    (dataSource.driver as unknown as { databaseConnection: Database.Database }).databaseConnection;
  const stored = async () =>
    (await dataSource.getRepository(OriginIdCounterEntity).find({ order: { name: 'ASC' } })).map((row) => row.name);

  it('is waited for busy_timeout on the event loop (the process goes on serving), then refused as unavailable', async () => {
    const transactions = transactionsFor(dataSource);
    other.exec('BEGIN EXCLUSIVE');
    const first = await watched(() => transactions.write(insertCounter('first')));
    expect(first.ms).toBeGreaterThanOrEqual(BUSY_TIMEOUT_MS - 20);
    // better-sqlite3's own wait would have stopped the timer for the whole 400 ms.
    expect(first.ticks).toBeGreaterThanOrEqual(BUSY_TIMEOUT_MS / 10 / 3);
    expect(isDatabaseUnavailable((first.outcome as { error: unknown }).error)).toBe(true);
    // The connection's own busy_timeout is kept for statements outside giro's transactions.
    expect(connection().pragma('busy_timeout', { simple: true })).toBe(BUSY_TIMEOUT_MS);
  });

  it('once the wait ran out, refuses the next writes at once, until the lock is free again', async () => {
    const transactions = transactionsFor(dataSource);
    other.exec('BEGIN EXCLUSIVE');
    await expect(transactions.write(insertCounter('first'))).rejects.toThrow();
    const next = await watched(() => transactions.write(insertCounter('next')));
    expect(next.ms).toBeLessThan(BUSY_TIMEOUT_MS / 4);
    const error = (next.outcome as { error: unknown }).error;
    expect((error as { driverError?: { code?: string } }).driverError?.code).toMatch(/^SQLITE_BUSY/);

    // Reads go on beside the other writer (WAL).
    await expect(
      transactions.read((manager) => manager.query('SELECT count(*) AS n FROM giro_origin_id_counter')),
    ).resolves.toEqual([{ n: 0 }]);

    other.exec('COMMIT');
    await expect(transactions.write(insertCounter('after'))).resolves.toBe('after');
    // Nothing refused was half-written.
    expect(await stored()).toEqual(['after']);

    // And the next lock is waited for again: released before the wait runs out, it is taken.
    other.exec('BEGIN EXCLUSIVE');
    setTimeout(() => other.exec('COMMIT'), BUSY_TIMEOUT_MS / 4);
    await expect(transactions.write(insertCounter('waited'))).resolves.toBe('waited');
    expect(await stored()).toEqual(['after', 'waited']);
  });
});
