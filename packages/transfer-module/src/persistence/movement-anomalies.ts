import type { EntityManager } from 'typeorm';
import { AnomalyResolutionEntity } from './entities';
import { bigintAsNumber } from './entities/column-transformers';
import {
  type AnomalyRecord,
  type AnomalyResolutionRecord,
  type RecordedActor,
  toAnomalyRecord,
  toAnomalyResolutionRecord,
} from './movement-records';
import { AnomalyAlreadyResolvedError, AnomalyNotFoundError, StoreArgumentError } from './persistence.errors';
import { checkActor, checkInteger, checkOriginId, checkText, MAX_BATCH_SIZE, MAX_NOTE_LENGTH } from './store-arguments';
import type { StoreContext } from './store-context';
import type { ListAnomaliesOptions, MovementPage } from './store-types';

// An anomaly is a history row with source `anomaly` (append-only); its resolution, when an operator closed it, is
// a row of giro_anomaly_resolutions keyed by that history row's id. The statements name `'anomaly'` as a literal so
// that Postgres reads the history's partial index of anomaly rows; every value is a placeholder.

const HISTORY_COLUMNS = `h."id", h."origin_id", h."from_status", h."to_status", h."at_ms", h."source", h."detail"`;
const RESOLUTION_COLUMNS = `r."history_id", r."resolved_at_ms", r."resolved_by_key_id", r."resolved_by_name", r."note"`;
const UNRESOLVED = `NOT EXISTS (SELECT 1 FROM "giro_anomaly_resolutions" r WHERE r."history_id" = h."id")`;

/** `<group>.<id>`: 0 unresolved, 1 resolved; then the anomaly id (newest first within a group). */
const CURSOR = /^([01])\.([1-9][0-9]{0,15})$/;

interface Cursor {
  resolved: boolean;
  id: number;
}

/** MovementStore's anomalies: the list an operator works from, their resolutions, and how many are open. */
export class MovementAnomalies {
  constructor(private readonly context: StoreContext) {}

  /**
   * A page of anomalies: unresolved ones first, then resolved ones, each newest first (by id, the order they were
   * recorded in); only resolved or unresolved ones, or one movement's, when asked.
   */
  async listAnomalies(options: ListAnomaliesOptions): Promise<MovementPage<AnomalyRecord>> {
    const limit = checkInteger(options.limit, 'limit', 1, MAX_BATCH_SIZE);
    if (options.resolved !== undefined && typeof options.resolved !== 'boolean') {
      throw new StoreArgumentError('resolved', 'type', 'must be a boolean');
    }
    const originId = options.originId === undefined ? undefined : checkOriginId(options.originId);
    const after = options.after === undefined ? undefined : parseCursor(options.after);
    const wanted = limit + 1;
    return this.context.transactions.read(async (manager) => {
      const rows: AnomalyRecord[] = [];
      if (options.resolved !== true && (after === undefined || !after.resolved)) {
        rows.push(...(await this.unresolved(manager, { originId, beforeId: after?.id, limit: wanted })));
      }
      if (options.resolved !== false && rows.length < wanted) {
        const beforeId = after?.resolved ? after.id : undefined;
        rows.push(...(await this.resolved(manager, { originId, beforeId, limit: wanted - rows.length })));
      }
      const items = rows.slice(0, limit);
      const last = items[items.length - 1];
      const nextCursor = rows.length > limit ? `${last.resolution === null ? 0 : 1}.${last.id}` : null;
      return { items, nextCursor };
    });
  }

  /**
   * Closes an anomaly: who (`by`), now, and why (`note`, 1 to 500 characters). The movement is not touched.
   * Throws AnomalyNotFoundError for an id that is no anomaly, AnomalyAlreadyResolvedError (with the first
   * resolution, which stays) when it was resolved already.
   */
  async resolveAnomaly(id: number, resolution: { note: string; by: RecordedActor }): Promise<AnomalyRecord> {
    const anomalyId = checkInteger(id, 'id', 1, Number.MAX_SAFE_INTEGER);
    const note = checkText(resolution?.note, 'note', MAX_NOTE_LENGTH, { lineBreaks: true });
    const by = checkActor(resolution?.by, 'by');
    const now = this.context.nowMs();
    const sql = (text: string) => this.context.engine.sql(text);
    return this.context.transactions.write(async (manager) => {
      const [row] = await manager.query(
        sql(`SELECT ${HISTORY_COLUMNS} FROM "giro_movement_history" h WHERE h."id" = ? AND h."source" = 'anomaly'`),
        [anomalyId],
      );
      if (!row) throw new AnomalyNotFoundError(anomalyId);
      // The primary key keeps one resolution per anomaly, also when two operators resolve it at once (Postgres:
      // the second insert waits for the first, then does nothing).
      const inserted: unknown[] = await manager.query(
        sql(`INSERT INTO "giro_anomaly_resolutions"
  ("history_id", "resolved_at_ms", "resolved_by_key_id", "resolved_by_name", "note") VALUES (?, ?, ?, ?, ?)
  ON CONFLICT ("history_id") DO NOTHING RETURNING "history_id"`),
        [anomalyId, now, by.keyId, by.name, note],
      );
      const stored = await manager.findOneByOrFail(AnomalyResolutionEntity, { historyId: anomalyId });
      if (inserted.length === 0) throw new AnomalyAlreadyResolvedError(anomalyId, toAnomalyResolutionRecord(stored));
      const anomaly = toAnomalyRecord(historyOf(row), stored);
      await this.context.audit?.recordChange(manager, {
        originId: anomaly.originId,
        target: String(anomalyId),
        before: { resolution: null },
        after: { resolution: anomaly.resolution },
      });
      return anomaly;
    });
  }

  /** Anomalies no operator has resolved yet (for metrics). */
  async countUnresolvedAnomalies(): Promise<number> {
    return this.context.transactions.read(async (manager) => {
      const [row] = await manager.query(
        `SELECT COUNT(*) AS "count" FROM "giro_movement_history" h WHERE h."source" = 'anomaly' AND ${UNRESOLVED}`,
      );
      return Number(row.count);
    });
  }

  private async unresolved(
    manager: EntityManager,
    options: { originId?: number; beforeId?: number; limit: number },
  ): Promise<AnomalyRecord[]> {
    const { text, parameters } = filtered(
      `SELECT ${HISTORY_COLUMNS} FROM "giro_movement_history" h
  WHERE h."source" = 'anomaly' AND ${UNRESOLVED}`,
      'h."id"',
      options,
    );
    const rows: Record<string, unknown>[] = await manager.query(
      this.context.engine.sql(`${text} ORDER BY h."id" DESC LIMIT ?`),
      [...parameters, options.limit],
    );
    return rows.map((row) => toAnomalyRecord(historyOf(row), null));
  }

  private async resolved(
    manager: EntityManager,
    options: { originId?: number; beforeId?: number; limit: number },
  ): Promise<AnomalyRecord[]> {
    // Read from the resolutions (their primary key gives the order), each with its history row.
    const { text, parameters } = filtered(
      `SELECT ${HISTORY_COLUMNS}, ${RESOLUTION_COLUMNS}
  FROM "giro_anomaly_resolutions" r JOIN "giro_movement_history" h ON h."id" = r."history_id"
  WHERE h."source" = 'anomaly'`,
      'r."history_id"',
      options,
    );
    const rows: Record<string, unknown>[] = await manager.query(
      this.context.engine.sql(`${text} ORDER BY r."history_id" DESC LIMIT ?`),
      [...parameters, options.limit],
    );
    return rows.map((row) => toAnomalyRecord(historyOf(row), resolutionOf(row)));
  }
}

/** The statement with the optional conditions (fixed text) and their values (placeholders). */
function filtered(
  text: string,
  idColumn: string,
  options: { originId?: number; beforeId?: number },
): { text: string; parameters: number[] } {
  const parameters: number[] = [];
  let statement = text;
  if (options.originId !== undefined) {
    statement += ' AND h."origin_id" = ?';
    parameters.push(options.originId);
  }
  if (options.beforeId !== undefined) {
    statement += ` AND ${idColumn} < ?`;
    parameters.push(options.beforeId);
  }
  return { text: statement, parameters };
}

function parseCursor(after: unknown): Cursor {
  const match = typeof after === 'string' ? CURSOR.exec(after) : null;
  if (!match || !Number.isSafeInteger(Number(match[2]))) {
    throw new StoreArgumentError('after', 'cursor', 'must be the nextCursor of a previous page');
  }
  return { resolved: match[1] === '1', id: Number(match[2]) };
}

const bigint = bigintAsNumber.from;

function historyOf(row: Record<string, unknown>) {
  return {
    id: row.id as string | number,
    originId: bigint(row.origin_id),
    fromStatus: row.from_status as AnomalyRecord['status'],
    toStatus: row.to_status as AnomalyRecord['claimed'],
    atMs: bigint(row.at_ms),
    source: 'anomaly' as const,
    detail: row.detail as string | null,
    // An anomaly is the bank's answer, recorded by giro itself.
    actorKeyId: null,
    actorName: null,
  };
}

function resolutionOf(row: Record<string, unknown>): AnomalyResolutionEntity {
  return {
    historyId: bigint(row.history_id),
    resolvedAtMs: bigint(row.resolved_at_ms),
    resolvedByKeyId: row.resolved_by_key_id as string,
    resolvedByName: row.resolved_by_name as string,
    note: row.note as string,
  };
}

/** The resolutions of these anomalies (history row ids) that have one; one query, none when no id is given. */
export async function resolutionsOf(manager: EntityManager, anomalyIds: number[]): Promise<AnomalyResolutionRecord[]> {
  if (anomalyIds.length === 0) return [];
  const rows = await manager
    .createQueryBuilder(AnomalyResolutionEntity, 'r')
    .where('r.historyId IN (:...ids)', { ids: anomalyIds })
    .getMany();
  return rows.map(toAnomalyResolutionRecord);
}
