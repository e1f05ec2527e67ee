import type { DataSource, DataSourceOptions, EntityManager, ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import type { MovementEntity, MovementHistoryEntity } from '../entities';
import { engineOf } from './database-engine';
import type { DeliveryResult } from './delivery-results';
import type { AccountShare, FairQueue, ShareTimes } from './fair-share';
import type { FencedWrite, FencedWriteResult } from './fenced-update';
import type { NewMovementHistory } from './movement-insert';
import type { OutboxStatements } from './outbox-write';
import { POSTGRES_CAPABILITIES, PostgresEngine } from './postgres-engine';
import { SQLITE_CAPABILITIES, SqliteEngine } from './sqlite-engine';
import type { Transactions } from './transactions';

/** A dispatcher's own connection (EngineAdapter.openDeliveryConnection). */
export interface DeliveryConnection {
  /** One statement, committed on its own; its rows. */
  run(sql: string, parameters: unknown[]): Promise<Record<string, unknown>[]>;
  /** Ends the connection (the dispatcher stopped). */
  close(): Promise<void>;
}

/** Runs one statement on a connection; its rows. */
export type RunStatement = (sql: string, parameters: unknown[]) => Promise<Record<string, unknown>[]>;

/** A replica's heartbeat's own connection (EngineAdapter.openHeartbeatConnection). */
export interface HeartbeatConnection {
  /**
   * Runs `work` in one transaction on this connection (committed when it resolves, rolled back when it throws),
   * with `serializeKey` serialised like EngineAdapter.serialize.
   */
  write<T>(work: (run: RunStatement) => Promise<T>, serializeKey?: number): Promise<T>;
  /** Ends the connection (the heartbeat stopped). */
  close(): Promise<void>;
}

/** What an engine can do that decides how giro uses it, known from the data source's type alone. */
export interface EngineCapabilities {
  /**
   * A server that may not be reachable yet when giro starts (a deployment may start giro first): worth waiting
   * for. A file that cannot be opened is not mended by waiting.
   */
  waitsForServerAtStart: boolean;
  /**
   * Several processes (replicas) work on the database at once: each writes its heartbeat (`giro_replicas`), they
   * share the bank budget through it, and a replica gone silent loses its leases before their expiry. SQLite is
   * one process's file.
   */
  sharedByReplicas: boolean;
  /**
   * A row and the rows it feeds (a movement and its history, an update and its history) are written by one
   * statement, atomic on its own, which then needs no BEGIN and COMMIT (Postgres: DML in a CTE). SQLite has no
   * DML in a CTE: such a write is two statements in a write transaction.
   */
  oneStatementWrites: boolean;
}

/**
 * Everything that differs between SQLite and Postgres, decided once per engine: the stores call these and never
 * ask which engine they run on. One adapter per data source (engineAdapterFor), resolved when the first store
 * is built on it; `sqlite-engine.ts` and `postgres-engine.ts` are the two implementations.
 */
/** A column a bulk insert fills, with the SQL type of its values. */
export interface BulkColumn {
  name: string;
  type: 'text' | 'integer' | 'bigint';
}

export interface EngineAdapter {
  readonly capabilities: EngineCapabilities;
  /** The data source's transactions (SQLite: serialised, with group commit; Postgres: the pool's). */
  readonly transactions: Transactions;

  // ── Statements ──────────────────────────────────────────────────────────────────────────────────────────
  /** A fixed statement written with `?` placeholders, spelled as the engine wants them (Postgres: `$1, $2, …`). */
  sql(text: string): string;
  /**
   * After a table in FROM: the index the planner must read it by (SQLite: `INDEXED BY`, which without ANALYZE's
   * statistics may prefer another index and a sort); empty on Postgres, whose planner keeps its statistics.
   */
  indexedBy(index: string): string;
  /** `haystack`'s position of `needle` (1-based, 0 when absent), as an SQL expression. */
  position(haystack: string, needle: string): string;
  /**
   * The text of `member` (a fixed name, never a value) of the JSON object stored as text in `column`, as an SQL
   * expression (SQLite `json_extract`, Postgres `->>`): read wherever the object has it, null when it has none.
   */
  jsonMember(column: string, member: string): string;
  /**
   * Inserts many rows into `table` (names fixed by the caller, never a value) in one statement: Postgres sends one
   * array per column (`unnest`, a handful of parameters whatever the rows), SQLite a row of placeholders each.
   */
  insertMany(manager: EntityManager, table: string, columns: readonly BulkColumn[], rows: unknown[][]): Promise<void>;
  /**
   * Rows as what follows an `INSERT INTO t (columns)`, `?` placeholders: Postgres `SELECT * FROM unnest(…)`, an
   * array per column (a handful of parameters whatever the rows, one statement text for any count), SQLite
   * `VALUES (…), …`. Inserted in the rows' order.
   */
  rowSource(columns: readonly BulkColumn[], rows: unknown[][]): { text: string; parameters: unknown[] };
  /**
   * `column`'s membership in `values`, as what follows the column in a condition, `?` placeholders: Postgres
   * `= ANY(?::type[])`, one array (one parameter, one statement text whatever the count, read by the column's
   * index as an IN list is); SQLite `IN (?, …)`. At least one value.
   */
  oneOf(type: BulkColumn['type'], values: readonly unknown[]): { text: string; parameters: unknown[] };
  /** The query locking the rows it reads until the transaction ends (SQLite: the write lock excludes others). */
  lockRows<T extends ObjectLiteral>(query: SelectQueryBuilder<T>): SelectQueryBuilder<T>;
  /**
   * The clause ending a SELECT whose rows a claimer takes: locked, and skipped by a concurrent claimer (Postgres:
   * `FOR UPDATE [OF alias] SKIP LOCKED`); empty on SQLite, where one writer at a time claims.
   */
  skipLocked(alias?: string): string;
  /**
   * Serialises, until the transaction ends, the transactions that call it with the same key (Postgres: an advisory
   * transaction lock); nothing on SQLite, whose write transactions already run one at a time.
   */
  serialize(manager: EntityManager, key: number): Promise<void>;

  // ── Leases ──────────────────────────────────────────────────────────────────────────────────────────────
  /**
   * The condition under which the lease of the row `alias` is free at a time (its first parameter): unleased,
   * expired, or (where replicas beat) held by a replica gone silent. Its parameters: unleasedParameters.
   */
  unleased(alias: string): string;
  /** The parameters of `unleased` (`claimer` undefined: a read that takes nothing, so no lease is free early). */
  unleasedParameters(nowMs: number, claimer: string | undefined): unknown[];
  /** Whether the lease of the movement is held by a replica gone silent, for `claimer` to take over. */
  heldBySilentOwner(manager: EntityManager, originId: number, claimer: string, nowMs: number): Promise<boolean>;
  /**
   * Each account's due rows of `queue`, in time order, at most its quota (fair-share.ts): on Postgres one
   * statement, a LATERAL subquery per account locking what it reads and skipping what another holds; on SQLite
   * one indexed statement per account.
   */
  selectShares(
    manager: EntityManager,
    queue: FairQueue,
    shares: readonly AccountShare[],
    times: ShareTimes,
  ): Promise<MovementEntity[]>;

  // ── Writes ──────────────────────────────────────────────────────────────────────────────────────────────
  /** A fenced write of a leased movement and its history rows; null when nothing matched its fence and guard. */
  fencedWrite(manager: EntityManager, write: FencedWrite): Promise<FencedWriteResult | null>;
  /**
   * How fenced writes without history rows go out, each given its own statement by `alone`: on Postgres batched
   * with the others under way (PostgresUpdateBatch); on SQLite alone, its commit shared by the group commit.
   */
  writesWithoutHistory(
    alone: (write: FencedWrite) => Promise<MovementEntity | null>,
  ): (write: FencedWrite) => Promise<MovementEntity | null>;
  /**
   * Inserts a new movement and its first history row, and with `outbox` its events and their deliveries (Postgres:
   * all in one statement); null when its originId is already stored (nothing written, no event).
   */
  insertMovement(
    manager: EntityManager,
    row: MovementEntity,
    history: NewMovementHistory,
    outbox?: OutboxStatements,
  ): Promise<MovementHistoryEntity | null>;
  /** Moves the originId counter `name` past `size` new ids (see OriginIdAllocator); the counter's new value, as text. */
  advanceOriginIdCounter(manager: EntityManager, name: string, timeFloor: number, size: number): Promise<string>;
  /** Writes outbox events and their deliveries in the caller's transaction. */
  writeOutboxRows(manager: EntityManager, statements: OutboxStatements): Promise<void>;

  // ── Webhook deliveries ──────────────────────────────────────────────────────────────────────────────────
  /**
   * Leases the deliveries `select` returns (its rows: a delivery's `id` and what its dispatch needs) to `owner`
   * until `leaseExpiresAtMs`; the rows, by next attempt time.
   */
  claimDeliveries(
    select: { sql: string; parameters: unknown[] },
    owner: string,
    leaseExpiresAtMs: number,
    connection?: DeliveryConnection,
  ): Promise<Record<string, unknown>[]>;
  /** Records batches of attempts' results, each fenced on `owner`'s lease; the delivery ids recorded. */
  recordDeliveryResults(
    owner: string,
    batches: readonly (readonly DeliveryResult[])[],
    connection?: DeliveryConnection,
  ): Promise<number[]>;
  /**
   * A running dispatcher's own connection (Postgres: outside the pool, so its claims and results do not wait
   * behind the writers' transactions; it LISTENs for events committed by any process and calls `onNews`), for
   * claimDeliveries and recordDeliveryResults; undefined on SQLite, one process's file, whose transactions
   * already take turns and whose commits wake the dispatcher in process.
   */
  openDeliveryConnection(onNews: () => void): DeliveryConnection | undefined;
  /**
   * A replica heartbeat's own connection (Postgres: outside the pool, so a beat does not wait behind the writers'
   * transactions and the replica is not taken for silent while it works); undefined on SQLite, which has no
   * replicas.
   */
  openHeartbeatConnection(): HeartbeatConnection | undefined;
  /**
   * Tells the dispatchers of other processes that webhook events were committed (Postgres: NOTIFY, after the
   * commit); nothing on SQLite.
   */
  announceEventsCommitted(): void;

  // ── The database itself ─────────────────────────────────────────────────────────────────────────────────
  /**
   * Runs `work` (statements TypeORM issues itself: migrations, reading their table) alone: on SQLite while no
   * giro transaction of this process is open on the file; on Postgres, with `lockKey`, under a session advisory
   * lock, so that replicas starting together migrate one after the other.
   */
  exclusively<T>(work: () => Promise<T>, lockKey?: number): Promise<T>;
  /** Keeps a connection the server ends from crashing the process (Postgres); nothing on SQLite. Idempotent. */
  keepConnectionErrorsHandled(): void;
  /**
   * After values were rewritten so that their old form must not stay on disk (secrets sealed): on SQLite the
   * write-ahead log is checkpointed into the file and truncated (the rewritten pages were zeroed in place by
   * `secure_delete`); on Postgres nothing (the old row versions go with VACUUM).
   */
  forgetRewrittenValues(): Promise<void>;
}

/** The capabilities of the engine a data source's options name; undefined for a type giro does not support. */
export function engineCapabilitiesOf(options: Pick<DataSourceOptions, 'type'>): EngineCapabilities | undefined {
  if (options.type === 'better-sqlite3') return SQLITE_CAPABILITIES;
  if (options.type === 'postgres') return POSTGRES_CAPABILITIES;
  return undefined;
}

const adapters = new WeakMap<DataSource, EngineAdapter>();

/**
 * The adapter of the data source's engine, made on first use and shared by every store on it (its
 * transactions, group commit and update batch are per data source). Throws for a type giro does not support.
 */
export function engineAdapterFor(dataSource: DataSource): EngineAdapter {
  let adapter = adapters.get(dataSource);
  if (adapter === undefined) {
    adapter = engineOf(dataSource) === 'sqlite' ? new SqliteEngine(dataSource) : new PostgresEngine(dataSource);
    adapters.set(dataSource, adapter);
  }
  return adapter;
}

/** The transactions of the data source's engine (engineAdapterFor). */
export function transactionsFor(dataSource: DataSource): Transactions {
  return engineAdapterFor(dataSource).transactions;
}
