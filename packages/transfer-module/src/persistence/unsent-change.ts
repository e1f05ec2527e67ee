import type { EntityManager } from 'typeorm';
import { isFinalStatus, type MovementStatus, PENDING_STATUS } from '../domain';
import { queryWithCount } from './engine/query-with-count';
import { historyFromRow } from './engine/raw-rows';
import { type HistorySource, MovementEntity } from './entities';
import type { LimitUsage } from './limit-usage';
import { writeMovementChangeEvents } from './movement-change-events';
import {
  type HistoryRecord,
  type MovementRecord,
  type RecordedActor,
  toHistoryRecord,
  toMovementRecord,
} from './movement-records';
import type { StoreContext } from './store-context';

/** A movement never sent leaving the status it waited in (for an approval, or for its moment): where it goes, and why. */
export interface UnsentChange {
  to: MovementStatus;
  source: HistorySource;
  detail: unknown;
  by: RecordedActor | null;
  /** Going PENDING: when it is due (default: at once, the change's time); a release passes its moment. */
  dueAtMs?: number;
}

/** A change written: the movement as it left it, and the history row it appended. */
export interface UnsentChangeOutcome {
  movement: MovementRecord;
  history: HistoryRecord;
}

const INSERT_HISTORY = `INSERT INTO "giro_movement_history"
  ("origin_id", "from_status", "to_status", "at_ms", "source", "detail", "actor_key_id", "actor_name")
  VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING *`;

/**
 * Writes the end of a wait of a movement never sent (AWAITING_APPROVAL, SCHEDULED), in the caller's transaction,
 * which holds its row: the status — PENDING is due at once (the caller or the next sweep sends it), any other is
 * not due —, its history row with who made the change, its limit share given back when it will never go out (a
 * final status, like FAILED), its events, and its audit row when an admin request made it.
 */
export async function writeUnsentChange(
  manager: EntityManager,
  context: StoreContext,
  usage: LimitUsage | undefined,
  row: MovementEntity,
  change: UnsentChange,
  now: number,
): Promise<UnsentChangeOutcome> {
  const changed: MovementEntity = {
    ...row,
    status: change.to,
    approvalExpiresAtMs: null,
    nextQueryAtMs: change.to === PENDING_STATUS ? (change.dueAtMs ?? now) : null,
    version: row.version + 1,
    updatedAtMs: now,
  };
  await manager
    .createQueryBuilder()
    .update(MovementEntity)
    .set({
      status: changed.status,
      approvalExpiresAtMs: null,
      nextQueryAtMs: changed.nextQueryAtMs,
      version: changed.version,
      updatedAtMs: now,
    })
    .where('"origin_id" = :originId', { originId: row.originId })
    .andWhere('"status" = :waiting', { waiting: row.status })
    .execute();
  const result = await queryWithCount(manager, context.engine.sql(INSERT_HISTORY), [
    row.originId,
    row.status,
    change.to,
    now,
    change.source,
    change.detail === null ? null : JSON.stringify(change.detail),
    change.by?.keyId ?? null,
    change.by?.name ?? null,
  ]);
  const history = toHistoryRecord(historyFromRow((result.records ?? [])[0]));
  const movement = toMovementRecord(changed);
  if (isFinalStatus(change.to) && row.usageDay !== null && usage) {
    await usage.free(manager, { address: movement.intent.from.address, day: row.usageDay, amount: movement.amount });
  }
  if (context.outbox) {
    const events = { movement, appended: [history], cancellation: null };
    await writeMovementChangeEvents(manager, context, context.outbox, events, now);
  }
  // Last: the audit row (an admin request's; none for a sweep's expiry or release) holds the trail's lock until
  // the commit.
  await context.audit?.recordChange(manager, {
    originId: row.originId,
    before: { status: row.status },
    after: { status: change.to, ...(change.detail !== null && { detail: change.detail }) },
  });
  return { movement, history };
}
