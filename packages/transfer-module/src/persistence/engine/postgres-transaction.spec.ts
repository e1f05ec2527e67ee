import { Client } from 'pg';
import type { DataSource } from 'typeorm';
import { isDatabaseUnavailable } from '../database-unavailable';
import { describeEachEngine } from '../testing/test-engines';
import { transactionsFor } from './engine-adapter';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describeEachEngine('a transaction whose connection is lost', (engine) => {
  if (engine.kind !== 'postgres') {
    it('is a Postgres matter (SQLite has no connection to lose)', () => expect(engine.kind).toBe('sqlite'));
    return;
  }

  let dataSource: DataSource;
  let url: string;
  beforeEach(async () => {
    const database = await engine.createDatabase();
    url = database.url;
    dataSource = await database.connectMigrated();
  });

  /** Ends one backend from another connection, as an operator or a restarting server does. */
  async function terminate(pid: number): Promise<void> {
    const client = new Client({ connectionString: url });
    await client.connect();
    try {
      await client.query('select pg_terminate_backend($1)', [pid]);
    } finally {
      await client.end();
    }
  }

  it('between two statements fails with the connection error (the database unavailable), not "already released"', async () => {
    const transactions = transactionsFor(dataSource);
    const outcome = await transactions
      .write(async (manager) => {
        const [{ pid }] = await manager.query('select pg_backend_pid() as pid');
        await terminate(pid);
        await sleep(200);
        await manager.query('select 1');
      })
      .catch((error: unknown) => error);
    expect(outcome).toBeInstanceOf(Error);
    expect((outcome as Error).name).not.toMatch(/AlreadyReleased/);
    expect(isDatabaseUnavailable(outcome)).toBe(true);
    // The pool serves the next transaction on a sound connection.
    await expect(transactions.read(async (manager) => manager.query('select 1 as one'))).resolves.toEqual([{ one: 1 }]);
  });

  it("keeps the work's own error when the connection is sound", async () => {
    await expect(
      transactionsFor(dataSource).write(async () => {
        throw new Error('work failed');
      }),
    ).rejects.toThrow('work failed');
  });
});
