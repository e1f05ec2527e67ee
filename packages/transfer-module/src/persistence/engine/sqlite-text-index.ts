import type { DataSource, EntityManager } from 'typeorm';

// The rows are read back from the table: the index (external content) must hold exactly what the table holds, or a
// later 'delete' of a row's old text would take out trigrams it never put in. Only the rows still there (a work rolled
// back to its savepoint took its own away), each once however often its id was recorded (IN).
const INDEX_MOVEMENTS = `INSERT INTO "giro_movement_text" ("rowid", "description")
  SELECT "origin_id", "description" FROM "giro_movements" WHERE "origin_id" IN (SELECT "value" FROM json_each(?))`;

/** What this needs of the better-sqlite3 connection behind a DataSource. */
interface SqliteConnection {
  prepare(sql: string): { run(...parameters: unknown[]): unknown };
}

/**
 * The description's FTS5 index (`giro_movement_text`) for the movements a giro transaction on SQLite inserts,
 * written by one statement just before its COMMIT rather than by a trigger on each insert. FTS5 writes the rows it
 * holds in memory as a new segment of its index at every SAVEPOINT (its xSavepoint), and the group commit takes one
 * around each transaction it runs: with a trigger every created transfer was a segment of its own, each merged into
 * the others later. Written at the end, a group's movements are one segment.
 *
 * Atomic as the trigger was: the statement runs in the transaction it indexes, so a movement is found by its text
 * exactly when its row is committed; a movement of a work rolled back to its savepoint is not in the table any more,
 * so not read into the index. Only movements actually inserted are recorded (an insert skipped as a replay is not).
 *
 * Giro never changes a movement's description nor deletes a movement, least of all in the transaction that inserted
 * it; the update and delete triggers stay for the edits of others, made after the row was indexed.
 */
export class SqliteTextIndexWrites {
  /** Whether a transaction of the group commit is open on the connection (it runs every giro transaction). */
  private open = false;
  /** The movements the open transaction inserted. */
  private inserted: number[] = [];
  private statement?: { connection: SqliteConnection; run(originIds: number[]): void };

  constructor(private readonly connection: () => SqliteConnection) {}

  /** A transaction of the group commit began. */
  begin(): void {
    this.open = true;
    this.inserted = [];
  }

  /**
   * `originId` was inserted by `manager`'s transaction: recorded for the COMMIT, or indexed now outside a
   * transaction of the group commit (none of giro's), which has no COMMIT of ours to wait for.
   */
  async insert(manager: EntityManager, originId: number): Promise<void> {
    if (this.open) this.inserted.push(originId);
    else await manager.query(INDEX_MOVEMENTS, [JSON.stringify([originId])]);
  }

  /** Indexes the transaction's movements: its last statement before COMMIT. */
  beforeCommit(): void {
    if (this.inserted.length === 0) return;
    const originIds = this.inserted;
    this.inserted = [];
    this.prepared().run(originIds);
  }

  /** The transaction ended (committed or rolled back). */
  end(): void {
    this.open = false;
    this.inserted = [];
  }

  private prepared(): { run(originIds: number[]): void } {
    const connection = this.connection();
    if (this.statement?.connection !== connection) {
      const prepared = connection.prepare(INDEX_MOVEMENTS);
      this.statement = { connection, run: (originIds) => prepared.run(JSON.stringify(originIds)) };
    }
    return this.statement;
  }
}

// One per DataSource, as its group commit: a transaction's inserts and its COMMIT meet on the same connection.
const textIndexes = new WeakMap<DataSource, SqliteTextIndexWrites>();

/** The text index writes of `dataSource`'s transactions. */
export function sqliteTextIndexOf(dataSource: DataSource): SqliteTextIndexWrites {
  let writes = textIndexes.get(dataSource);
  if (writes === undefined) {
    writes = new SqliteTextIndexWrites(
      () => (dataSource.driver as unknown as { databaseConnection: SqliteConnection }).databaseConnection,
    );
    textIndexes.set(dataSource, writes);
  }
  return writes;
}
