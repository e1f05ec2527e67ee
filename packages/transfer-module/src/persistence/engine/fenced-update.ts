import type { EntityManager, EntityMetadata } from 'typeorm';
import { FINAL_STATUSES, type MovementStatus } from '../../domain';
import { MovementEntity, MovementHistoryEntity } from '../entities';
import type { DatabaseEngine } from './database-engine';
import { queryWithCount } from './query-with-count';
import { historyFromRow, movementFromRow, placeholdersFor } from './raw-rows';

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

// A leased movement's update in two statements instead of four: the history rows are inserted from the
// current row (their `from` is its status) under the fence and the guard, then one fenced UPDATE returns the
// new row. When nothing matched (the lease is not the caller's, or the guard refused), nothing was written
// and the caller reads the row to tell which. On SQLite the write transaction excludes every other writer
// between the two statements; on Postgres the first one locks the row (FOR UPDATE OF m).

/**
 * The updated movement and the history rows appended (oldest first), or null when nothing matched the fence
 * and the guard (nothing written).
 */
export async function runFencedWrite(
  manager: EntityManager,
  engine: DatabaseEngine,
  write: FencedWrite,
): Promise<{ movement: MovementEntity; history: MovementHistoryEntity[] } | null> {
  const metadata = manager.connection.getMetadata(MovementEntity);
  const sql = (text: string) => placeholdersFor(engine, text);
  let history: MovementHistoryEntity[] = [];
  const condition = fenceAndGuard(write);
  if (write.history.length > 0) {
    const entries = write.history.map(() => (engine === 'postgres' ? '(?, ?, ?, ?::int)' : '(?, ?, ?, ?)')).join(', ');
    const inserted = await queryWithCount(
      manager,
      sql(`INSERT INTO "giro_movement_history" ("origin_id", "from_status", "to_status", "at_ms", "source", "detail")
        SELECT m."origin_id", m."status", e.column1, ${engine === 'postgres' ? '?::bigint' : '?'}, e.column2, e.column3
        FROM "giro_movements" m, (VALUES ${entries}) AS e
        WHERE ${condition.sql} ORDER BY e.column4${engine === 'postgres' ? ' FOR UPDATE OF m' : ''}
        RETURNING *`),
      [
        write.nowMs,
        ...write.history.flatMap((entry, index) => [entry.to, entry.source, entry.detail, index]),
        ...condition.parameters,
      ],
    );
    const rows = inserted.records ?? [];
    if (rows.length !== write.history.length) return null;
    history = rows.map(historyFromRow).sort((a, b) => Number(a.id) - Number(b.id));
  }
  const assignments = Object.entries(write.values).map(([property, value]) => assignment(metadata, property, value));
  const updated = await queryWithCount(
    manager,
    sql(
      `UPDATE "giro_movements" AS m SET ${[
        ...assignments.map(({ sql }) => sql),
        '"version" = "version" + 1',
        ...(write.countQuery ? ['"queries" = "queries" + 1'] : []),
        ...(write.uncountSend ? ['"attempts" = CASE WHEN "attempts" > 0 THEN "attempts" - 1 ELSE 0 END'] : []),
      ].join(', ')} WHERE ${condition.sql} RETURNING *`,
    ),
    [...assignments.flatMap(({ parameters }) => parameters), ...condition.parameters],
  );
  const [raw] = updated.records ?? [];
  if (raw === undefined) {
    // Only reachable if the row changed between the two statements, which the lock rules out: roll back.
    if (write.history.length > 0) throw new Error(`the history of originId ${write.originId} lost its movement`);
    return null;
  }
  return { movement: movementFromRow(raw), history };
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
  return { sql: `"${column.databaseName}" = ?`, parameters: [value] };
}
