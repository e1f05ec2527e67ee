import { spawn, spawnSync } from 'node:child_process';
import { DataSource } from 'typeorm';
import { OriginIdCounterEntity } from '../entities';
import { describeEachEngine, describeOnSqlite } from '../testing/test-engines';
import { dataSourceOptionsFromUrl } from './data-source-options';
import { transactionsFor } from './engine-adapter';

const counterNames = async (dataSource: DataSource) =>
  (await dataSource.getRepository(OriginIdCounterEntity).find({ order: { name: 'ASC' } })).map((row) => row.name);

const insertCounter = (name: string) => async (manager: DataSource['manager']) => {
  await manager.createQueryBuilder().insert().into(OriginIdCounterEntity).values({ name, nextValue: 1 }).execute();
};

type BetterSqliteOptions = Extract<ReturnType<typeof dataSourceOptionsFromUrl>, { type: 'better-sqlite3' }>;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describeEachEngine('transactions', (engine) => {
  it('commit when the work resolves and roll back when it throws', async () => {
    const dataSource = await (await engine.createDatabase()).connectMigrated();
    const transactions = transactionsFor(dataSource);
    await transactions.write(insertCounter('kept'));
    await expect(
      transactions.write(async (manager) => {
        await insertCounter('dropped')(manager);
        throw new Error('work failed');
      }),
    ).rejects.toThrow('work failed');
    expect(await counterNames(dataSource)).toEqual(['kept']);
  });

  it('never let one task’s statements join another task’s open transaction', async () => {
    const dataSource = await (await engine.createDatabase()).connectMigrated();
    const transactions = transactionsFor(dataSource);
    const failing = transactions.write(async (manager) => {
      await insertCounter('a')(manager);
      await sleep(30); // the other task runs meanwhile
      throw new Error('rolled back');
    });
    const other = transactions.write(insertCounter('b'));
    await expect(failing).rejects.toThrow('rolled back');
    await other;
    expect(await counterNames(dataSource)).toEqual(['b']);
  });

  it('never let a read statement see another task’s uncommitted rows', async () => {
    const dataSource = await (await engine.createDatabase()).connectMigrated();
    const transactions = transactionsFor(dataSource);
    let inserted!: () => void;
    const insertedOnce = new Promise<void>((resolve) => {
      inserted = resolve;
    });
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const failing = transactions.write(async (manager) => {
      await insertCounter('a')(manager);
      inserted();
      await released;
      throw new Error('rolled back');
    });
    await insertedOnce;
    const read = transactions.readStatement((manager) => manager.getRepository(OriginIdCounterEntity).count());
    release();
    await expect(failing).rejects.toThrow('rolled back');
    expect(await read).toBe(0);
  });
});

// A plain better-sqlite3 connection in another process, as a second writer on the same file would be. It holds
// the write lock until its input ends (`until-input-ends`), or for a number of milliseconds.
const otherProcessScript = `
  const Database = require(process.argv[1]);
  const db = new Database(process.argv[2], { timeout: Number(process.argv[3]) });
  try {
    db.exec('BEGIN IMMEDIATE');
    process.stdout.write('locked\\n');
    const release = () => { db.exec('COMMIT'); process.stdout.write('released\\n'); };
    if (process.argv[4] === 'until-input-ends') process.stdin.on('end', release).resume();
    else setTimeout(release, Number(process.argv[4]));
  } catch (error) {
    process.stdout.write(error.code + '\\n');
  }`;

describeOnSqlite('transactions against another process', (engine) => {
  let dataSource: DataSource;
  let file: string;
  beforeEach(async () => {
    const database = await engine.createDatabase();
    file = database.url.slice('sqlite:'.length);
    dataSource = await database.connectMigrated();
  });

  it('take the write lock at BEGIN for writes (BEGIN IMMEDIATE), not for reads', async () => {
    const tryLock = () =>
      spawnSync(process.execPath, ['-e', otherProcessScript, require.resolve('better-sqlite3'), file, '0', '0'], {
        encoding: 'utf8',
      }).stdout.split('\n')[0];
    const transactions = transactionsFor(dataSource);
    expect(await transactions.write(async () => tryLock())).toBe('SQLITE_BUSY');
    expect(await transactions.read(async () => tryLock())).toBe('locked');
  });

  it('wait for another process’s write lock (busy timeout) instead of failing', async () => {
    const holder = spawn(process.execPath, [
      '-e',
      otherProcessScript,
      require.resolve('better-sqlite3'),
      file,
      '0',
      'until-input-ends',
    ]);
    // Listened for from the start: the lock is waited for on the event loop, so the holder may exit before the
    // write resolves.
    const exited = new Promise((resolve) => holder.on('exit', resolve));
    const output: string[] = [];
    await new Promise<void>((resolve, reject) => {
      holder.stdout.on('data', (chunk: Buffer) => {
        output.push(...chunk.toString().trim().split('\n'));
        if (output.includes('locked')) resolve();
      });
      holder.on('error', reject);
    });
    const logQuery = jest.spyOn(dataSource.logger, 'logQuery');
    const begins = () => logQuery.mock.calls.filter(([sql]) => sql === 'BEGIN IMMEDIATE').length;
    let settled = false;
    const write = transactionsFor(dataSource)
      .write(insertCounter('after-wait'))
      .finally(() => {
        settled = true;
      });
    // Bounded wait on state: the write met the lock and tries again, still waiting while the other holds it.
    for (let turn = 0; begins() < 2 && turn < 2_000; turn++) await sleep(1);
    expect(begins()).toBeGreaterThanOrEqual(2);
    expect(settled).toBe(false);
    holder.stdin.end();
    await write;
    await exited;
    expect(output).toEqual(['locked', 'released']);
    expect(await counterNames(dataSource)).toEqual(['after-wait']);
  });
});

describeOnSqlite('transactions on a data source giro did not configure', (engine) => {
  it('make commits durable (synchronous=FULL) before the first one', async () => {
    const database = await engine.createDatabase();
    const migrated = await database.connectMigrated();
    await migrated.destroy();
    const { prepareDatabase: _giroPragmas, ...options } = dataSourceOptionsFromUrl(database.url) as BetterSqliteOptions;
    const hostDataSource = await new DataSource({
      ...options,
      prepareDatabase: (db: { pragma(source: string): unknown }) => {
        db.pragma('synchronous = NORMAL');
      },
    }).initialize();
    try {
      const synchronous = async () => Object.values((await hostDataSource.query('PRAGMA synchronous'))[0])[0];
      expect(await synchronous()).toBe(1); // NORMAL
      await transactionsFor(hostDataSource).write(insertCounter('durable'));
      expect(await synchronous()).toBe(2); // FULL
    } finally {
      await hostDataSource.destroy();
    }
  });
});

describeOnSqlite('read statements on SQLite', (engine) => {
  it('run at once while no transaction holds the file, without waiting for a group', async () => {
    const dataSource = await (await engine.createDatabase()).connectMigrated();
    const transactions = transactionsFor(dataSource);
    await transactions.write(insertCounter('committed'));
    // A group starts on a later turn of the event loop (setImmediate): a read run at once is done before this one.
    let turned = false;
    setImmediate(() => {
      turned = true;
    });
    expect(await transactions.readStatement((manager) => manager.getRepository(OriginIdCounterEntity).count())).toBe(1);
    expect(turned).toBe(false);
  });

  it('wait for the group while a transaction holds the file', async () => {
    const dataSource = await (await engine.createDatabase()).connectMigrated();
    const transactions = transactionsFor(dataSource);
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let inserted!: () => void;
    const insertedOnce = new Promise<void>((resolve) => {
      inserted = resolve;
    });
    const writing = transactions.write(async (manager) => {
      await insertCounter('a')(manager);
      inserted();
      await released;
    });
    await insertedOnce;
    let read = false;
    const reading = transactions
      .readStatement((manager) => manager.getRepository(OriginIdCounterEntity).count())
      .finally(() => {
        read = true;
      });
    await new Promise((resolve) => setImmediate(resolve));
    expect(read).toBe(false);
    release();
    await writing;
    expect(await reading).toBe(1);
  });
});
