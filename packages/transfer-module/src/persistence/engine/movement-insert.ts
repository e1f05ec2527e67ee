import type { EntityManager, EntityMetadata } from 'typeorm';
import { MovementEntity, type MovementHistoryEntity } from '../entities';
import { OUTBOX_EVENT_COLUMNS, type OutboxStatements, writeSqliteOutboxRows } from './outbox-write';
import { queryPrepared } from './prepared-statement';
import { queryWithCount } from './query-with-count';
import { HISTORY_COLUMNS, historyFromRow, numberedPlaceholders } from './raw-rows';
import { sqliteTextIndexOf } from './sqlite-text-index';

/** A new movement's first history row (from no status to its first one). */
export interface NewMovementHistory {
  status: string;
  atMs: number;
  source: string;
  /** JSON text, or null. */
  detail: string | null;
  actorKeyId: string | null;
  actorName: string | null;
}

const INTENT_HISTORY_COLUMNS = `"origin_id", "from_status", "to_status", "at_ms", "source", "detail", "actor_key_id", "actor_name"`;

interface MovementInsert {
  sql: string;
  /** The entity's properties, in the order of the statement's placeholders (the history row's values follow). */
  properties: (keyof MovementEntity)[];
}

// Fixed text with placeholders, prepared once (a query builder would write the numbers into the SQL). ON CONFLICT
// DO NOTHING on both engines: it skips only a uniqueness conflict (NOT NULL and CHECK failures still throw), and on
// Postgres it leaves the transaction usable, unlike a failed INSERT. The INSERT names every column of the entity:
// it is spelled once per data source (its metadata), not on every insert, so the driver also finds it prepared
// without hashing a new text each time.
function movementInsertSql(metadata: EntityMetadata): string {
  const columns = metadata.columns;
  return `INSERT INTO "giro_movements" (${columns.map((column) => `"${column.databaseName}"`).join(', ')})
      VALUES (${columns.map(() => '?').join(', ')}) ON CONFLICT ("origin_id") DO NOTHING`;
}

function cachedInsert(
  cache: WeakMap<EntityMetadata, MovementInsert>,
  metadata: EntityMetadata,
  spell: (movementSql: string) => string,
): MovementInsert {
  let insert = cache.get(metadata);
  if (insert === undefined) {
    insert = {
      sql: spell(movementInsertSql(metadata)),
      properties: metadata.columns.map((column) => column.propertyName as keyof MovementEntity),
    };
    cache.set(metadata, insert);
  }
  return insert;
}

const historyValuesOf = (history: NewMovementHistory) => [
  history.status,
  history.atMs,
  history.source,
  history.detail,
  history.actorKeyId,
  history.actorName,
];

const sqliteInserts = new WeakMap<EntityMetadata, MovementInsert>();

const INSERT_INTENT_HISTORY = `INSERT INTO "giro_movement_history" (${INTENT_HISTORY_COLUMNS})
  VALUES (?, NULL, ?, ?, ?, ?, ?, ?) RETURNING *`;

/**
 * SQLite, which has no DML in a CTE: the movement's INSERT, then its history row (then the outbox's rows), in the
 * caller's write transaction; its description's index is written before that transaction's COMMIT
 * (SqliteTextIndexWrites). Null when the originId is already stored.
 */
export async function insertSqliteMovement(
  manager: EntityManager,
  row: MovementEntity,
  history: NewMovementHistory,
  outbox?: OutboxStatements,
): Promise<MovementHistoryEntity | null> {
  const insert = cachedInsert(sqliteInserts, manager.connection.getMetadata(MovementEntity), (sql) => sql);
  const movementValues = insert.properties.map((property) => row[property]);
  if ((await queryWithCount(manager, insert.sql, movementValues)).affected !== 1) return null;
  await sqliteTextIndexOf(manager.connection).insert(manager, row.originId);
  const [first] =
    (await queryWithCount(manager, INSERT_INTENT_HISTORY, [row.originId, ...historyValuesOf(history)])).records ?? [];
  if (outbox !== undefined) await writeSqliteOutboxRows(manager, outbox);
  return historyFromRow(first);
}

const postgresInserts = new WeakMap<EntityMetadata, MovementInsert>();

const historyInsert = (movementSql: string) => `WITH movement AS (${movementSql} RETURNING "origin_id"),
  history AS (INSERT INTO "giro_movement_history" (${INTENT_HISTORY_COLUMNS})
    SELECT movement."origin_id", NULL, ?, ?::bigint, ?, ?, ?, ? FROM movement RETURNING ${HISTORY_COLUMNS})`;

/** The movement's, its history row's and the outbox's INSERT, per deliveries' text (one for the intents' events). */
const postgresOutboxInserts = new Map<string, WeakMap<EntityMetadata, MovementInsert>>();

const outboxEventsInsert = () => {
  const names = OUTBOX_EVENT_COLUMNS.map((column) => `"${column.name}"`).join(', ');
  const arrays = OUTBOX_EVENT_COLUMNS.map((column) => `?::${column.type}[]`).join(', ');
  return `INSERT INTO "giro_webhook_events" (${names}) SELECT * FROM unnest(${arrays})
    WHERE EXISTS (SELECT 1 FROM movement) RETURNING "seq", "type", "origin_id"`;
};

/**
 * Postgres: the movement's INSERT feeding its history row, one prepared statement, which returns that row when
 * the movement was inserted and nothing when its originId was already stored (then null). With `outbox`, the same
 * statement writes its events (only when the movement was inserted: a replay announces nothing) and their
 * deliveries, the events' values as one array per column, so its text does not change with their number.
 */
export async function insertPostgresMovement(
  manager: EntityManager,
  row: MovementEntity,
  history: NewMovementHistory,
  outbox?: OutboxStatements,
): Promise<MovementHistoryEntity | null> {
  const metadata = manager.connection.getMetadata(MovementEntity);
  let insert: MovementInsert;
  let outboxValues: unknown[] = [];
  if (outbox === undefined) {
    insert = cachedInsert(postgresInserts, metadata, (movementSql) =>
      numberedPlaceholders(`${historyInsert(movementSql)} SELECT * FROM history`),
    );
  } else {
    const deliveries = outbox.deliveries('ev', '');
    let cache = postgresOutboxInserts.get(deliveries);
    if (cache === undefined) {
      cache = new WeakMap();
      postgresOutboxInserts.set(deliveries, cache);
    }
    insert = cachedInsert(cache, metadata, (movementSql) =>
      numberedPlaceholders(`${historyInsert(movementSql)},
        ev AS (${outboxEventsInsert()}),
        delivered AS (${deliveries})
        SELECT * FROM history`),
    );
    outboxValues = [
      ...OUTBOX_EVENT_COLUMNS.map((_column, index) => outbox.eventRows.map((event) => event[index])),
      ...outbox.deliveryParameters,
    ];
  }
  const movementValues = insert.properties.map((property) => row[property]);
  const [first] = await queryPrepared(manager, insert.sql, [
    ...movementValues,
    ...historyValuesOf(history),
    ...outboxValues,
  ]);
  return first === undefined ? null : historyFromRow(first);
}
