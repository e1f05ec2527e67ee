import Database from 'better-sqlite3';
import type { DataSource, EntityManager } from 'typeorm';
import { currentAuditScope, runInAuditScope } from '../audit-scope';
import { OriginIdCounterEntity } from '../entities';
import { describeOnSqlite } from '../testing/test-engines';
import { transactionsFor } from './engine-adapter';
import { GroupRolledBackError, MAX_GROUP_SIZE } from './sqlite-group-commit';

const insertCounter = (name: string) => async (manager: EntityManager) => {
  await manager.createQueryBuilder().insert().into(OriginIdCounterEntity).values({ name, nextValue: 1 }).execute();
  return name;
};

const storedNames = async (dataSource: DataSource) =>
  (await dataSource.getRepository(OriginIdCounterEntity).find({ order: { name: 'ASC' } })).map((row) => row.name);

describeOnSqlite('SQLite group commit', (engine) => {
  let dataSource: DataSource;
  let file: string;
  let statements: string[];
  /** The next statement with this text fails, as on an I/O error. */
  let failNext: string | undefined;

  beforeEach(async () => {
    const database = await engine.createDatabase();
    file = database.url.slice('sqlite:'.length);
    dataSource = await database.connectMigrated();
    // better-sqlite3's driver hands out one query runner: every statement of every transaction goes through it.
    const runner = dataSource.createQueryRunner();
    const query = runner.query.bind(runner);
    statements = [];
    failNext = undefined;
    jest.spyOn(runner, 'query').mockImplementation(async (sql: string, ...rest: unknown[]) => {
      statements.push(sql);
      if (sql === failNext) {
        failNext = undefined;
        throw new Error('disk I/O error');
      }
      return (query as (...args: unknown[]) => Promise<unknown>)(sql, ...rest);
    });
    // The savepoint statements go straight to the connection, prepared once: recorded when they run.
    const connection = (dataSource.driver as unknown as { databaseConnection: Database.Database }).databaseConnection;
    const prepare = connection.prepare.bind(connection);
    jest.spyOn(connection, 'prepare').mockImplementation((sql: string) => {
      const statement = prepare(sql);
      if (!/^(SAVEPOINT|RELEASE|ROLLBACK TO) /.test(sql)) return statement;
      return Object.assign(Object.create(statement), {
        run: () => {
          statements.push(sql);
          return statement.run();
        },
      });
    });
  });

  const count = (sql: string) => statements.filter((statement) => statement === sql).length;
  const names = (n: number, prefix = 'w') =>
    Array.from({ length: n }, (_, i) => `${prefix}${String(i).padStart(3, '0')}`);

  it('commits the transactions queued in one turn of the event loop with one COMMIT', async () => {
    const transactions = transactionsFor(dataSource);
    const results = await Promise.all(names(20).map((name) => transactions.write(insertCounter(name))));
    expect(results).toEqual(names(20));
    expect(count('COMMIT')).toBe(1);
    expect(count('SAVEPOINT "giro_work"')).toBe(20);
    expect(await storedNames(dataSource)).toEqual(names(20));
  });

  it("runs each work of a group in its own caller's audit scope, not in that of the caller that started the group", async () => {
    const transactions = transactionsFor(dataSource);
    const write = (action: string) =>
      runInAuditScope({ who: null, action, requestId: action, clientAddress: null }, () =>
        transactions.write(async (manager) => {
          await insertCounter(action)(manager);
          return currentAuditScope()?.action;
        }),
      );
    const seen = await Promise.all(names(5).map(write));
    expect(seen).toEqual(names(5));
    expect(count('COMMIT')).toBe(1);
    expect(currentAuditScope()).toBeUndefined();
  });

  it('works on after its DataSource was destroyed and initialized again (a new connection)', async () => {
    const transactions = transactionsFor(dataSource);
    await Promise.all(names(3, 'a').map((name) => transactions.write(insertCounter(name))));
    await dataSource.destroy();
    await dataSource.initialize();
    // The host's own connection settings, which giro must not trust for its commits.
    await dataSource.query('PRAGMA synchronous = NORMAL');
    await Promise.all(names(3, 'b').map((name) => transactions.write(insertCounter(name))));
    expect(await storedNames(dataSource)).toEqual([...names(3, 'a'), ...names(3, 'b')]);
    expect(await dataSource.query('PRAGMA synchronous')).toEqual([{ synchronous: 2 }]); // FULL
  });

  it('runs a lone transaction as before: no savepoint', async () => {
    await transactionsFor(dataSource).write(insertCounter('alone'));
    expect(statements.filter((sql) => !sql.startsWith('PRAGMA'))).toEqual([
      'BEGIN IMMEDIATE',
      expect.stringContaining('INSERT'),
      'COMMIT',
    ]);
  });

  it(`splits a longer queue into groups of at most ${MAX_GROUP_SIZE}`, async () => {
    const transactions = transactionsFor(dataSource);
    await Promise.all(names(MAX_GROUP_SIZE + 10).map((name) => transactions.write(insertCounter(name))));
    expect(count('COMMIT')).toBe(2);
    expect(await storedNames(dataSource)).toHaveLength(MAX_GROUP_SIZE + 10);
  });

  it('rolls back a failing work alone: its caller gets its error, the others commit', async () => {
    const transactions = transactionsFor(dataSource);
    const failing = transactions.write(async (manager) => {
      await insertCounter('dropped')(manager);
      throw new Error('work failed');
    });
    const others = names(3).map((name) => transactions.write(insertCounter(name)));
    await expect(failing).rejects.toThrow('work failed');
    await expect(Promise.all(others)).resolves.toEqual(names(3));
    expect(count('COMMIT')).toBe(1);
    expect(await storedNames(dataSource)).toEqual(names(3));
  });

  it('answers a caller only once the COMMIT made its work durable', async () => {
    const transactions = transactionsFor(dataSource);
    const otherConnection = new Database(file, { readonly: true });
    try {
      const seenByOthers = () =>
        (otherConnection.prepare('SELECT "name" FROM "giro_origin_id_counter"').all() as { name: string }[]).map(
          (row) => row.name,
        );
      let seenBeforeCommit: string[] = [];
      const first = transactions.write(insertCounter('first'));
      const last = transactions.write(async (manager) => {
        await insertCounter('last')(manager);
        seenBeforeCommit = seenByOthers();
      });
      const seenWhenFirstAnswered = await first.then(seenByOthers);
      await last;
      expect(seenBeforeCommit).toEqual([]);
      expect(seenWhenFirstAnswered).toEqual(['first', 'last']);
    } finally {
      otherConnection.close();
    }
  });

  it('refuses every caller of a group whose COMMIT fails, and keeps nothing of it', async () => {
    const transactions = transactionsFor(dataSource);
    failNext = 'COMMIT';
    const outcomes = await Promise.allSettled(names(3).map((name) => transactions.write(insertCounter(name))));
    for (const outcome of outcomes) {
      expect(outcome.status).toBe('rejected');
      const { reason } = outcome as PromiseRejectedResult;
      expect(reason).toBeInstanceOf(GroupRolledBackError);
      expect((reason as Error).message).toContain('disk I/O error');
    }
    expect(await storedNames(dataSource)).toEqual([]);
    // The next group commits normally.
    await transactions.write(insertCounter('after'));
    expect(await storedNames(dataSource)).toEqual(['after']);
  });

  it('when SQLite aborts the whole transaction, refuses the works that ran and commits the rest next', async () => {
    const transactions = transactionsFor(dataSource);
    const before = transactions.write(insertCounter('before'));
    const aborting = transactions.write(async (manager) => {
      // What SQLite does by itself on a full disk or an I/O error: the whole transaction is gone.
      await manager.query('ROLLBACK');
      throw new Error('database or disk is full');
    });
    const after = names(2, 'after').map((name) => transactions.write(insertCounter(name)));
    await expect(before).rejects.toBeInstanceOf(GroupRolledBackError);
    await expect(aborting).rejects.toThrow('database or disk is full');
    await expect(Promise.all(after)).resolves.toEqual(names(2, 'after'));
    expect(await storedNames(dataSource)).toEqual(names(2, 'after'));
  });
});
