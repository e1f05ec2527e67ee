import type { EntityManager } from 'typeorm';
import { ANOMALY_KIND_NAMES, ANOMALY_KINDS, type AnomalyKind } from '../domain';
import {
  ANOMALY_RANKS,
  type AnomalyCursor,
  afterCursor,
  comesBefore,
  formatAnomalyCursor,
  parseAnomalyCursor,
} from './anomaly-order';
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
import { type UnknownDebitRecord, UnknownDebits } from './unknown-debits';

// A transfer's anomaly is a history row with source `anomaly` (append-only); its resolution, when an operator closed
// it, is a row of giro_anomaly_resolutions keyed by that history row's id. The statements name `'anomaly'` as a
// literal so that Postgres reads the history's partial index of anomaly rows; every value is a placeholder. A debit
// of a statement no transfer explains is an anomaly too, of its own tables (unknown-debits.ts).

/** An item of the anomaly list: a transfer's anomaly, or a statement's debit no transfer explains. */
export type AnomalyListRecord = AnomalyRecord | UnknownDebitRecord;

const HISTORY_COLUMNS = `h."id", h."origin_id", h."from_status", h."to_status", h."at_ms", h."source", h."detail"`;
const RESOLUTION_COLUMNS = `r."history_id", r."resolved_at_ms", r."resolved_by_key_id", r."resolved_by_name", r."note"`;
const UNRESOLVED = `NOT EXISTS (SELECT 1 FROM "giro_anomaly_resolutions" r WHERE r."history_id" = h."id")`;

/** MovementStore's anomalies: the list an operator works from, their resolutions, and how many are open. */
export class MovementAnomalies {
  private readonly unknownDebits: UnknownDebits;

  constructor(private readonly context: StoreContext) {
    this.unknownDebits = new UnknownDebits(context);
  }

  /**
   * A page of anomalies of both kinds — a transfer's (a history row) and a statement's debit no transfer explains
   * — in one order (anomaly-order.ts): unresolved ones first, then resolved ones, each newest first; only resolved
   * or unresolved ones, one movement's (no unknown debit is), or one kind's, when asked.
   */
  async listAnomalies(options: ListAnomaliesOptions): Promise<MovementPage<AnomalyListRecord>> {
    const limit = checkInteger(options.limit, 'limit', 1, MAX_BATCH_SIZE);
    if (options.resolved !== undefined && typeof options.resolved !== 'boolean') {
      throw new StoreArgumentError('resolved', 'type', 'must be a boolean');
    }
    const originId = options.originId === undefined ? undefined : checkOriginId(options.originId);
    const kind = options.kind === undefined ? undefined : checkAnomalyKind(options.kind);
    const cursor = options.after === undefined ? undefined : parseAnomalyCursor(options.after);
    const wanted = limit + 1;
    return this.context.transactions.read(async (manager) => {
      const rows: AnomalyListRecord[] = [];
      for (const resolved of [false, true]) {
        if (options.resolved === !resolved || rows.length >= wanted || (cursor?.resolved && !resolved)) continue;
        const page = { resolved, cursor, limit: wanted - rows.length };
        const ofTransfers =
          kind === ANOMALY_KINDS.unknownDebit ? [] : await this.transferAnomalies(manager, { ...page, originId, kind });
        const unknownDebits =
          originId === undefined && (kind === undefined || kind === ANOMALY_KINDS.unknownDebit)
            ? await this.unknownDebits.page(manager, page)
            : [];
        rows.push(...merged(ofTransfers, unknownDebits).slice(0, page.limit));
      }
      const items = rows.slice(0, limit);
      const last = items[items.length - 1];
      const nextCursor = rows.length > limit ? formatAnomalyCursor(cursorAt(last)) : null;
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

  /**
   * Closes an unknown debit, as resolveAnomaly a transfer's anomaly (the same checks and errors); its id is among
   * the unknown debits'.
   */
  async resolveUnknownDebit(id: number, resolution: { note: string; by: RecordedActor }): Promise<UnknownDebitRecord> {
    const unknownDebitId = checkInteger(id, 'id', 1, Number.MAX_SAFE_INTEGER);
    const note = checkText(resolution?.note, 'note', MAX_NOTE_LENGTH, { lineBreaks: true });
    const by = checkActor(resolution?.by, 'by');
    return this.unknownDebits.resolve(unknownDebitId, { note, by });
  }

  /** Anomalies of both kinds no operator has resolved yet (the dashboard's, and the metrics'). */
  async countUnresolvedAnomalies(): Promise<number> {
    return this.context.transactions.read(async (manager) => {
      const [row] = await manager.query(
        `SELECT COUNT(*) AS "count" FROM "giro_movement_history" h WHERE h."source" = 'anomaly' AND ${UNRESOLVED}`,
      );
      return Number(row.count) + (await this.unknownDebits.countOpen(manager));
    });
  }

  /** A transfer's anomalies of one group after `cursor`, in the anomalies' order. */
  private async transferAnomalies(
    manager: EntityManager,
    options: { resolved: boolean; cursor?: AnomalyCursor; originId?: number; kind?: AnomalyKind; limit: number },
  ): Promise<AnomalyRecord[]> {
    const position = afterCursor('h', ANOMALY_RANKS.transfer, options.resolved, options.cursor);
    const byOrigin = options.originId === undefined ? '' : ' AND h."origin_id" = ?';
    // A named anomaly's detail is the JSON of an object with its kind among its members.
    const byKind = options.kind === undefined ? '' : ` AND ${this.context.engine.jsonMember('h."detail"', 'kind')} = ?`;
    const rows: Record<string, unknown>[] = await manager.query(
      this.context.engine.sql(`SELECT ${HISTORY_COLUMNS}, ${RESOLUTION_COLUMNS}
  FROM "giro_movement_history" h LEFT JOIN "giro_anomaly_resolutions" r ON r."history_id" = h."id"
  WHERE h."source" = 'anomaly' AND r."history_id" IS ${options.resolved ? 'NOT NULL' : 'NULL'}${byOrigin}${byKind}${position.text}
  ORDER BY h."at_ms" DESC, h."id" DESC LIMIT ?`),
      [
        ...(options.originId === undefined ? [] : [options.originId]),
        ...(options.kind === undefined ? [] : [options.kind]),
        ...position.parameters,
        options.limit,
      ],
    );
    return rows.map((row) => toAnomalyRecord(historyOf(row), options.resolved ? resolutionOf(row) : null));
  }
}

/** Two lists, each in the anomalies' order, as one. */
function merged(ofTransfers: AnomalyRecord[], unknownDebits: UnknownDebitRecord[]): AnomalyListRecord[] {
  const all: AnomalyListRecord[] = [...ofTransfers, ...unknownDebits];
  return all.sort((a, b) => (comesBefore(cursorAt(a), cursorAt(b)) ? -1 : 1));
}

function cursorAt(record: AnomalyListRecord): AnomalyCursor {
  return {
    resolved: record.resolution !== null,
    atMs: record.at.getTime(),
    rank: 'statement' in record ? ANOMALY_RANKS.unknownDebit : ANOMALY_RANKS.transfer,
    id: record.id,
  };
}

const bigint = bigintAsNumber.from;

function checkAnomalyKind(kind: unknown): AnomalyKind {
  if (!ANOMALY_KIND_NAMES.includes(kind as AnomalyKind)) {
    throw new StoreArgumentError('kind', 'enum', `must be one of ${ANOMALY_KIND_NAMES.join(', ')}`, {
      allowed: ANOMALY_KIND_NAMES,
    });
  }
  return kind as AnomalyKind;
}

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
