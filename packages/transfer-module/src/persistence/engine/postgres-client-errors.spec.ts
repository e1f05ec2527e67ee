import type { EventEmitter } from 'node:events';
import { createTestDatabase, describeWithPostgres, type TestDatabase } from '@test-support/postgres';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { dataSourceOptionsFromUrl } from './data-source-options';
import { keepPostgresClientErrorsHandled } from './postgres-client-errors';

type Pool = EventEmitter & { connect(): Promise<EventEmitter & { release(): void }> };
const poolOf = (dataSource: DataSource) => (dataSource.driver as unknown as { master: Pool }).master;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describeWithPostgres('Postgres clients whose connection the server ends', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  beforeEach(async () => {
    database = await createTestDatabase();
    dataSource = await new DataSource(dataSourceOptionsFromUrl(database.url)).initialize();
  });
  afterEach(async () => {
    if (dataSource.isInitialized) await dataSource.destroy();
    await database.drop();
  });

  it('have an error listener while checked out of the pool, where pg leaves them none', async () => {
    const before = await poolOf(dataSource).connect();
    // The gap that crashed a replica: a client out of the pool has no listener of its own.
    expect(before.listenerCount('error')).toBe(0);
    before.release();
    keepPostgresClientErrorsHandled(dataSource);
    keepPostgresClientErrorsHandled(dataSource);
    const client = await poolOf(dataSource).connect();
    try {
      expect(client.listenerCount('error')).toBe(1);
      expect(() =>
        client.emit('error', new Error('terminating connection due to administrator command')),
      ).not.toThrow();
    } finally {
      client.release();
    }
  });

  it('never crash the process when the server ends them again and again under load', async () => {
    keepPostgresClientErrorsHandled(dataSource);
    const killer = new Client({ connectionString: database.url });
    await killer.connect();
    const tally = { committed: 0, failed: 0, terminated: 0 };
    // For 3 s, and on until the server has ended enough of them and some work failed for it: a loaded machine may
    // get there later (the 20 s bound only stops a run that never would).
    const started = Date.now();
    const seenEnough = () => tally.terminated > 10 && tally.failed > 0;
    const going = () => {
      const elapsed = Date.now() - started;
      return elapsed < 3_000 || (!seenEnough() && elapsed < 20_000);
    };
    const work = async () => {
      while (going()) {
        try {
          await dataSource.transaction(async (manager) => {
            await manager.query('select pg_sleep(0.005)');
            await manager.query('select 1');
          });
          tally.committed += 1;
        } catch {
          tally.failed += 1;
          await sleep(5);
        }
      }
    };
    const terminate = async () => {
      while (going()) {
        const ended = await killer.query(
          'select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
        );
        tally.terminated += ended.rowCount ?? 0;
        await sleep(30);
      }
    };
    try {
      await Promise.all([...Array.from({ length: 8 }, work), terminate()]);
    } finally {
      await killer.end();
    }
    expect(tally.terminated).toBeGreaterThan(10);
    expect(tally.failed).toBeGreaterThan(0);
    // And the pool serves again once the server stops ending its connections.
    expect(await dataSource.query('select 1 as one')).toEqual([{ one: 1 }]);
  });
});
