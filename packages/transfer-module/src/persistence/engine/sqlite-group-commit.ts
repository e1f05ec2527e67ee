import { AsyncResource } from 'node:async_hooks';
import type { DataSource, EntityManager, QueryRunner } from 'typeorm';
import type { AsyncMutex } from './async-mutex';
import { type SqliteBusyTimeout, SqliteLockWait } from './sqlite-lock-wait';
import { type SqliteTextIndexWrites, sqliteTextIndexOf } from './sqlite-text-index';
import type { TransactionMode } from './transactions';

/** Transactions that waited together and share one COMMIT (one fsync), at most this many. */
export const MAX_GROUP_SIZE = 64;

interface QueuedWork {
  mode: TransactionMode;
  work: (manager: EntityManager) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/** What giro needs of the better-sqlite3 connection behind a DataSource. */
interface SqliteConnection extends SqliteBusyTimeout {
  inTransaction: boolean;
  prepare(sql: string): { run(): unknown };
}

// The savepoint around each work of a group: fixed name, reused (each is released before the next is taken).
const SAVEPOINT_STATEMENTS = {
  take: 'SAVEPOINT "giro_work"',
  undo: 'ROLLBACK TO "giro_work"',
  release: 'RELEASE "giro_work"',
} as const;

/** A transaction's work was undone because the group it committed with could not be committed. */
export class GroupRolledBackError extends Error {
  constructor(cause: unknown) {
    super(
      `the transaction was rolled back with the others committed at the same time: ${cause instanceof Error ? cause.message : String(cause)}`,
      { cause },
    );
    this.name = 'GroupRolledBackError';
  }
}

/**
 * Group commit for one SQLite DataSource. On SQLite every commit of a write transaction is an fsync
 * (synchronous=FULL), and giro's transactions run one after another on one connection; so the transactions
 * that queued up while one ran are run together in the next single transaction, each inside a SAVEPOINT,
 * and committed with one COMMIT: one fsync for all of them.
 *
 * Each caller still gets the semantics of its own transaction: its work's result only once the COMMIT that
 * made it durable succeeded (so an intent is on disk before anything is sent), and a work that throws is
 * rolled back to its savepoint alone, its caller gets the error and the others commit. If the group cannot
 * be committed, every caller whose work ran in it gets a GroupRolledBackError; works not run yet go to
 * the next group. A lone transaction runs as before: BEGIN, its statements, COMMIT.
 */
export class SqliteGroupCommit {
  private readonly queue: QueuedWork[] = [];
  private scheduled = false;
  /** While a group runs: its callers' outcomes, given once the file's lock is released. */
  private settlements?: (() => void)[];
  // Both belong to one connection: a DataSource destroyed and initialized again has a new one.
  /** The connection set to synchronous=FULL. */
  private durableConnection?: SqliteConnection;
  /** Waits for another process's write lock on the event loop, not in the driver: see SqliteLockWait. */
  private readonly lockWait = new SqliteLockWait();
  private savepoints?: {
    connection: SqliteConnection;
    statements: Record<keyof typeof SAVEPOINT_STATEMENTS, { run(): unknown }>;
  };
  /** The description's index of the movements a transaction inserts, written just before its COMMIT. */
  private readonly textIndex: SqliteTextIndexWrites;

  constructor(
    private readonly dataSource: DataSource,
    /** Held from BEGIN to COMMIT: shared by every DataSource of the same file in this process. */
    private readonly fileLock: AsyncMutex,
  ) {
    this.textIndex = sqliteTextIndexOf(dataSource);
  }

  /** Queues `work` for the next group; settles once the group's COMMIT made it durable (or rolled it back). */
  enqueue<T>(mode: TransactionMode, work: (manager: EntityManager) => Promise<T>): Promise<T> {
    // The work runs in its caller's async context, not in that of whichever caller started the group: what the
    // caller keeps in AsyncLocalStorage (its audit scope) is what the work sees. A resource run directly, not
    // AsyncResource.bind: Node 20's bind also defines deprecated accessors on every function it makes, a cost
    // paid on every transaction of the create path.
    const caller = new AsyncResource('giro.sqlite.transaction');
    const inCallerContext = (manager: EntityManager) => caller.runInAsyncScope(work, undefined, manager);
    return new Promise<T>((resolve, reject) => {
      this.queue.push({
        mode,
        work: inCallerContext,
        resolve: (value) => this.settle(() => resolve(value as T)),
        reject: (error) => this.settle(() => reject(error)),
      });
      this.schedule();
    });
  }

  /**
   * Runs `work`, ONE read statement, at once (beside other such reads) when no giro transaction holds this file in
   * this process or waits for it and the connection has none open: alone in autocommit it reads only what was committed, as it would in a
   * group of its own, without waiting for the next group, taking a savepoint or a group's place. Otherwise queued as
   * a read transaction (a statement beside another task's open transaction would read its uncommitted rows).
   */
  readStatement<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    const now =
      this.connection()?.inTransaction !== false
        ? undefined
        : this.fileLock.tryRunShared(() => work(this.dataSource.createQueryRunner().manager));
    return now ?? this.enqueue('read', work);
  }

  private schedule(): void {
    if (this.scheduled || this.queue.length === 0) return;
    this.scheduled = true;
    // better-sqlite3 is synchronous: a whole transaction runs within one turn of the event loop, so nothing
    // could queue behind it. The group starts at the end of this turn instead (setImmediate), once the I/O
    // callbacks of the turn (bank answers, new requests) have queued their transactions. The lock is taken
    // again for every group, so other users of the file (migrations) get their turn.
    setImmediate(() => {
      this.settlements = [];
      void this.fileLock
        .runExclusive(() => this.runGroup(this.queue.splice(0, MAX_GROUP_SIZE)))
        .finally(() => {
          // The callers learn their outcome once the lock is released: what they do next (a create's payee read)
          // then finds the file free and runs at once (readStatement).
          const settlements = this.settlements ?? [];
          this.settlements = undefined;
          for (const settle of settlements) settle();
          this.scheduled = false;
          this.schedule();
        });
    });
  }

  /** Settles a caller's promise: at once, or while a group runs, once its lock is released. */
  private settle(settlement: () => void): void {
    if (this.settlements === undefined) settlement();
    else this.settlements.push(settlement);
  }

  private async runGroup(group: QueuedWork[]): Promise<void> {
    const runner = this.dataSource.createQueryRunner();
    try {
      await this.ensureDurableCommits(runner);
      await this.begin(runner, group.some((queued) => queued.mode === 'write') ? 'BEGIN IMMEDIATE' : 'BEGIN');
    } catch (error) {
      for (const queued of group) queued.reject(error);
      return;
    }
    this.textIndex.begin();
    try {
      if (group.length === 1) await this.runAlone(runner, group[0]);
      else await this.runTogether(runner, group);
    } finally {
      this.textIndex.end();
    }
  }

  private async runTogether(runner: QueryRunner, group: QueuedWork[]): Promise<void> {
    const ran: { queued: QueuedWork; value: unknown }[] = [];
    let next = 0;
    try {
      for (; next < group.length; next += 1) {
        const queued = group[next];
        this.savepoint('take');
        try {
          ran.push({ queued, value: await queued.work(runner.manager) });
        } catch (error) {
          if (!this.connection().inTransaction) {
            // SQLite rolled the whole transaction back by itself (a full disk, an I/O error): the works that
            // ran before are undone too; those not run yet wait for the next group.
            queued.reject(error);
            for (const done of ran) done.queued.reject(new GroupRolledBackError(error));
            this.queue.unshift(...group.slice(next + 1));
            return;
          }
          this.savepoint('undo');
          queued.reject(error);
        }
        this.savepoint('release');
      }
      this.textIndex.beforeCommit();
      await runner.query('COMMIT');
    } catch (error) {
      // A savepoint statement or the COMMIT failed: nothing of the group is kept.
      await runner.query('ROLLBACK').catch(() => undefined);
      for (const done of ran) done.queued.reject(new GroupRolledBackError(error));
      for (const queued of group.slice(next)) queued.reject(new GroupRolledBackError(error));
      return;
    }
    for (const done of ran) done.queued.resolve(done.value);
  }

  private async runAlone(runner: QueryRunner, queued: QueuedWork): Promise<void> {
    try {
      const value = await queued.work(runner.manager);
      this.textIndex.beforeCommit();
      await runner.query('COMMIT');
      queued.resolve(value);
    } catch (error) {
      // Some errors (a full disk, an I/O error) make SQLite roll back by itself, and then ROLLBACK
      // fails with "no transaction is active": the original error is the one worth reporting.
      await runner.query('ROLLBACK').catch(() => undefined);
      queued.reject(error);
    }
  }

  private async begin(runner: QueryRunner, statement: 'BEGIN' | 'BEGIN IMMEDIATE'): Promise<void> {
    // A deferred BEGIN takes no lock: nothing to wait for.
    if (statement === 'BEGIN') await runner.query(statement);
    else await this.lockWait.begin(this.connection(), () => runner.query(statement));
  }

  private async ensureDurableCommits(runner: QueryRunner): Promise<void> {
    const connection = this.connection();
    if (this.durableConnection === connection) return;
    // A host's own data source may run with synchronous=NORMAL, under which a commit in WAL mode can be
    // lost on power failure; an intent must never be. (Outside a transaction: SQLite requires it.)
    await runner.query('PRAGMA synchronous = FULL');
    this.durableConnection = connection;
  }

  /**
   * Runs a savepoint statement straight on the connection, prepared once: four of them per transaction in a
   * group, on the create path, where going through TypeORM's query() made them a noticeable part of its CPU.
   */
  private savepoint(step: keyof typeof SAVEPOINT_STATEMENTS): void {
    const connection = this.connection();
    if (this.savepoints?.connection !== connection) {
      this.savepoints = {
        connection,
        statements: {
          take: connection.prepare(SAVEPOINT_STATEMENTS.take),
          undo: connection.prepare(SAVEPOINT_STATEMENTS.undo),
          release: connection.prepare(SAVEPOINT_STATEMENTS.release),
        },
      };
    }
    this.savepoints.statements[step].run();
  }

  private connection(): SqliteConnection {
    return (this.dataSource.driver as unknown as { databaseConnection: SqliteConnection }).databaseConnection;
  }
}
