import type { EntityManager, EntityMetadata } from 'typeorm';
import { FINAL_STATUSES, type MovementStatus } from '../../domain';
import { MovementEntity, MovementHistoryEntity } from '../entities';
import { queryPrepared } from './prepared-statement';
import { queryWithCount } from './query-with-count';
import { HISTORY_COLUMNS, historyFromRow, movementColumns, movementFromRow, numberedPlaceholders } from './raw-rows';

/** What to write, already checked and turned into column values by the store. */
export interface FencedWrite {
  originId: number;
  owner: string;
  nowMs: number;
  /** Entity properties → new values. */
  values: Partial<MovementEntity>;
  countQuery: boolean;
  uncountSend: boolean;
  /** History rows to append, `from` being the status before the update. */
  history: { to: MovementStatus; source: string; detail: string | null }[];
  /**
   * Which current statuses the update may apply to (the store's rules, decided from the update alone):
   * `any`, `only` this status (no change), `changing` from any other non-final status to this one, or
   * `same-or-changing` (this status, or any non-final one).
   */
  guard: { kind: 'any' } | { kind: 'only' | 'changing' | 'same-or-changing'; status: MovementStatus };
}

/** What a fenced write wrote: the updated movement and the history rows appended, oldest first. */
export interface FencedWriteResult {
  movement: MovementEntity;
  history: MovementHistoryEntity[];
}

// A leased movement's update with history rows: on Postgres ONE statement, atomic on its own (so it needs no
// BEGIN and COMMIT when nothing else shares its transaction): the row is locked under the fence and the guard,
// updated, and the history rows are inserted from what the UPDATE changed, with the status it had before as
// their `from`. On SQLite, which has no DML in a CTE, two statements: the history rows from the current row,
// then the UPDATE; the write transaction excludes every other writer between them. When nothing matched (the
// lease is not the caller's, or the guard refused), nothing was written and the caller reads the row to tell
// which.

/** SQLite: what the write wrote, or null when nothing matched the fence and the guard (nothing written). */
export async function runSqliteFencedWrite(
  manager: EntityManager,
  write: FencedWrite,
): Promise<FencedWriteResult | null> {
  if (write.history.length === 0) {
    const movement = await runSqliteUpdate(manager, write);
    return movement && { movement, history: [] };
  }
  return runSqliteWriteWithHistory(manager, write);
}

/** Postgres: what the write wrote, or null when nothing matched the fence and the guard (nothing written). */
export async function runPostgresFencedWrite(
  manager: EntityManager,
  write: FencedWrite,
): Promise<FencedWriteResult | null> {
  if (write.history.length === 0) {
    const movement = await runPostgresUpdate(manager, write);
    return movement && { movement, history: [] };
  }
  return runPostgresWriteWithHistory(manager, write);
}

async function runSqliteWriteWithHistory(
  manager: EntityManager,
  write: FencedWrite,
): Promise<FencedWriteResult | null> {
  const condition = fenceAndGuard(write);
  const entries = write.history.map(() => '(?, ?, ?, ?)').join(', ');
  const inserted = await queryWithCount(
    manager,
    `INSERT INTO "giro_movement_history" ("origin_id", "from_status", "to_status", "at_ms", "source", "detail")
      SELECT m."origin_id", m."status", e.column1, ?, e.column2, e.column3
      FROM "giro_movements" m, (VALUES ${entries}) AS e
      WHERE ${condition.sql} ORDER BY e.column4
      RETURNING *`,
    [write.nowMs, ...historyParameters(write), ...condition.parameters],
  );
  const rows = inserted.records ?? [];
  if (rows.length !== write.history.length) return null;
  const movement = await runSqliteUpdate(manager, write);
  // Only reachable if the row changed between the two statements, which the write lock rules out: roll back.
  if (movement === null) throw new Error(`the history of originId ${write.originId} lost its movement`);
  return { movement, history: rows.map(historyFromRow).sort((a, b) => Number(a.id) - Number(b.id)) };
}

// The history rows come back beside the updated movement's columns, one result row per history row, under
// names no movement column has.
const APPENDED_COLUMNS = `a."id" AS "appended_id", a."from_status" AS "appended_from_status",
  a."to_status" AS "appended_to_status", a."at_ms" AS "appended_at_ms", a."source" AS "appended_source",
  a."detail" AS "appended_detail"`;

async function runPostgresWriteWithHistory(
  manager: EntityManager,
  write: FencedWrite,
): Promise<FencedWriteResult | null> {
  const condition = fenceAndGuard(write);
  const update = updateOf(manager, write);
  const entries = write.history.map(() => '(?, ?, ?, ?::int)').join(', ');
  // `locked` takes the row lock and keeps the status before the update; the UPDATE changes only the row it
  // locked, and the history rows are inserted only from the row the UPDATE changed. In READ COMMITTED a row
  // changed by another transaction since the statement began is re-checked against the fence and the guard
  // when its lock is taken.
  const rows = await queryPrepared(
    manager,
    numberedPlaceholders(
      `WITH locked AS (
        SELECT m."origin_id" AS "locked_origin_id", m."status" AS "from_status" FROM "giro_movements" m
        WHERE ${condition.sql} FOR UPDATE
      ), updated AS (
        UPDATE "giro_movements" AS m SET ${update.sql} FROM locked WHERE m."origin_id" = locked."locked_origin_id"
        RETURNING ${movementColumns(manager.connection.getMetadata(MovementEntity), 'm')}
      ), a AS (
        INSERT INTO "giro_movement_history" ("origin_id", "from_status", "to_status", "at_ms", "source", "detail")
        SELECT updated."origin_id", locked."from_status", e.column1, ?::bigint, e.column2, e.column3
        FROM locked JOIN updated ON updated."origin_id" = locked."locked_origin_id", (VALUES ${entries}) AS e
        ORDER BY e.column4
        RETURNING ${HISTORY_COLUMNS}
      )
      SELECT updated.*, ${APPENDED_COLUMNS} FROM updated JOIN a ON a."origin_id" = updated."origin_id"
      ORDER BY a."id"`,
    ),
    [...condition.parameters, ...update.parameters, write.nowMs, ...historyParameters(write)],
  );
  if (rows.length === 0) return null;
  if (rows.length !== write.history.length) {
    throw new Error(`originId ${write.originId}: ${rows.length} history rows written for ${write.history.length}`);
  }
  return { movement: movementFromRow(rows[0]), history: rows.map(appendedHistoryFromRow) };
}

function appendedHistoryFromRow(row: Record<string, unknown>): MovementHistoryEntity {
  return historyFromRow({
    id: row.appended_id,
    origin_id: row.origin_id,
    from_status: row.appended_from_status,
    to_status: row.appended_to_status,
    at_ms: row.appended_at_ms,
    source: row.appended_source,
    detail: row.appended_detail,
    actor_key_id: null,
    actor_name: null,
  });
}

function historyParameters(write: FencedWrite): unknown[] {
  return write.history.flatMap((entry, index) => [entry.to, entry.source, entry.detail, index]);
}

/** The fenced UPDATE alone (`?` placeholders): its text and parameters. */
function updateStatement(manager: EntityManager, write: FencedWrite): { sql: string; parameters: unknown[] } {
  const condition = fenceAndGuard(write);
  const update = updateOf(manager, write);
  return {
    sql: `UPDATE "giro_movements" AS m SET ${update.sql} WHERE ${condition.sql}
      RETURNING ${movementColumns(manager.connection.getMetadata(MovementEntity))}`,
    parameters: [...update.parameters, ...condition.parameters],
  };
}

/** SQLite: the fenced UPDATE alone: the new row, or null when nothing matched. */
async function runSqliteUpdate(manager: EntityManager, write: FencedWrite): Promise<MovementEntity | null> {
  const { sql, parameters } = updateStatement(manager, write);
  const [raw] = (await queryWithCount(manager, sql, parameters)).records ?? [];
  return raw === undefined ? null : movementFromRow(raw);
}

/** Postgres: the fenced UPDATE alone, a prepared statement: the new row, or null when nothing matched. */
async function runPostgresUpdate(manager: EntityManager, write: FencedWrite): Promise<MovementEntity | null> {
  const { sql, parameters } = updateStatement(manager, write);
  const [raw] = await queryPrepared(manager, numberedPlaceholders(sql), parameters);
  return raw === undefined ? null : movementFromRow(raw);
}

/** The SET list of a fenced write, with its parameters. */
function updateOf(manager: EntityManager, write: FencedWrite): { sql: string; parameters: unknown[] } {
  const metadata = manager.connection.getMetadata(MovementEntity);
  const assignments = Object.entries(write.values).map(([property, value]) => assignment(metadata, property, value));
  return {
    sql: [
      ...assignments.map(({ sql }) => sql),
      '"version" = "version" + 1',
      ...(write.countQuery ? ['"queries" = "queries" + 1'] : []),
      ...(write.uncountSend ? ['"attempts" = CASE WHEN "attempts" > 0 THEN "attempts" - 1 ELSE 0 END'] : []),
    ].join(', '),
    parameters: assignments.flatMap(({ parameters }) => parameters),
  };
}

function fenceAndGuard(write: FencedWrite): { sql: string; parameters: unknown[] } {
  const finals = FINAL_STATUSES.map(() => '?').join(', ');
  const fence = 'm."origin_id" = ? AND m."lease_owner" = ? AND m."lease_expires_at_ms" > ?';
  const parameters: unknown[] = [write.originId, write.owner, write.nowMs];
  const { guard } = write;
  if (guard.kind === 'any') return { sql: fence, parameters };
  const guards = {
    only: 'm."status" = ?',
    changing: `m."status" <> ? AND m."status" NOT IN (${finals})`,
    'same-or-changing': `(m."status" = ? OR m."status" NOT IN (${finals}))`,
  };
  return {
    sql: `${fence} AND ${guards[guard.kind]}`,
    parameters: [...parameters, guard.status, ...(guard.kind === 'only' ? [] : FINAL_STATUSES)],
  };
}

function assignment(
  metadata: EntityMetadata,
  property: string,
  value: unknown,
): { sql: string; parameters: unknown[] } {
  const column = metadata.findColumnWithPropertyName(property);
  if (!column) throw new Error(`MovementEntity has no property ${property}`);
  if (property === 'nextQueryAtMs') {
    // A final movement is never due again, also when the update does not name the status ("status" here is
    // the value before the update; the guard lets a status change only start from a non-final one).
    const finals = FINAL_STATUSES.map(() => '?').join(', ');
    return {
      sql: `"${column.databaseName}" = CASE WHEN "status" IN (${finals}) THEN NULL ELSE CAST(? AS bigint) END`,
      parameters: [...FINAL_STATUSES, value],
    };
  }
  if (property === 'finalAtMs') {
    // When it became final, written once: a final answer repeated keeps the first one's time.
    const finals = FINAL_STATUSES.map(() => '?').join(', ');
    return {
      sql: `"${column.databaseName}" = CASE WHEN "status" IN (${finals}) THEN "${column.databaseName}" ELSE CAST(? AS bigint) END`,
      parameters: [...FINAL_STATUSES, value],
    };
  }
  return { sql: `"${column.databaseName}" = ?`, parameters: [value] };
}
