import { resolve } from 'node:path';
import type { DataSource, EntityManager } from 'typeorm';
import { AsyncMutex } from './async-mutex';
import { postgresTransaction } from './postgres-transaction';
import { SqliteGroupCommit } from './sqlite-group-commit';

/** `write` takes the database's write lock at the start (SQLite `BEGIN IMMEDIATE`); `read` does not. */
export type TransactionMode = 'read' | 'write';

/** Each runs `work` in one transaction: committed when it resolves, rolled back when it throws. */
export interface Transactions {
  read<T>(work: (manager: EntityManager) => Promise<T>): Promise<T>;
  /** Takes the write lock at the start (see TransactionMode). */
  write<T>(work: (manager: EntityManager) => Promise<T>): Promise<T>;
  /**
   * Runs `work`, which issues exactly ONE write statement (atomic on its own), as cheaply as the engine
   * allows: on Postgres without BEGIN and COMMIT (two round trips less); on SQLite like `write`, which
   * shares its commit with the transactions queued beside it.
   */
  writeStatement<T>(work: (manager: EntityManager) => Promise<T>): Promise<T>;
  /**
   * Runs `work`, which issues exactly ONE read statement (its own snapshot), as cheaply as the engine allows: on
   * Postgres without BEGIN and COMMIT (two round trips less); on SQLite behind the in-process lock (a statement
   * beside another task's open transaction would read its uncommitted rows), at once when that lock is free.
   */
  readStatement<T>(work: (manager: EntityManager) => Promise<T>): Promise<T>;
}

/** Postgres: each transaction on a connection of the pool. */
export function postgresTransactions(dataSource: DataSource): Transactions {
  const statement = async <T>(work: (manager: EntityManager) => Promise<T>): Promise<T> => {
    // A query runner of its own, for results with a row count; autocommit: no BEGIN, no COMMIT.
    const runner = dataSource.createQueryRunner();
    try {
      return await work(runner.manager);
    } finally {
      await runner.release();
    }
  };
  return {
    read: (work) => postgresTransaction(dataSource, work),
    write: (work) => postgresTransaction(dataSource, work),
    writeStatement: statement,
    readStatement: statement,
  };
}

// better-sqlite3 gives a DataSource ONE connection, shared by every query runner: a statement issued while
// another task's transaction is open would silently join it. So every giro transaction on SQLite holds an
// in-process lock from BEGIN to COMMIT. The lock is shared by all DataSources of the same file in this
// process: the driver is synchronous, so a second connection waiting on the file's write lock (busy_timeout)
// would block the very thread that must finish the first transaction. Other processes are kept out by
// SQLite's own lock, which BEGIN IMMEDIATE takes up front (a deferred transaction that later upgrades to a
// writer can fail with SQLITE_BUSY instead of waiting).
const fileLocks = new Map<string, AsyncMutex>();
const memoryLocks = new WeakMap<DataSource, AsyncMutex>();

function sqliteLockFor(dataSource: DataSource): AsyncMutex {
  const database = String(dataSource.options.database);
  if (database === ':memory:') {
    const lock = memoryLocks.get(dataSource) ?? new AsyncMutex();
    memoryLocks.set(dataSource, lock);
    return lock;
  }
  const key = resolve(database);
  const lock = fileLocks.get(key) ?? new AsyncMutex();
  fileLocks.set(key, lock);
  return lock;
}

/**
 * Runs `work` while no giro transaction is open on this SQLite file in this process (for statements TypeORM
 * issues itself, such as migrations).
 */
export function runSqliteExclusive<T>(dataSource: DataSource, work: () => Promise<T>): Promise<T> {
  return sqliteLockFor(dataSource).runExclusive(work);
}

// One group committer per DataSource: transactions can only share a COMMIT on the same connection.
const groupCommits = new WeakMap<DataSource, SqliteGroupCommit>();

/** SQLite: every transaction serialised in this process, and those queued together share one commit. */
export function sqliteTransactions(dataSource: DataSource): Transactions {
  // The statements are written by SqliteGroupCommit: TypeORM's own startTransaction() would issue a deferred
  // BEGIN. Inside `work`, use query builders and raw queries, not `save()`, which would try to open a
  // transaction of its own on the same connection.
  const group = groupCommits.get(dataSource) ?? new SqliteGroupCommit(dataSource, sqliteLockFor(dataSource));
  groupCommits.set(dataSource, group);
  return {
    read: (work) => group.enqueue('read', work),
    write: (work) => group.enqueue('write', work),
    writeStatement: (work) => group.enqueue('write', work),
    readStatement: (work) => group.readStatement(work),
  };
}
