import type { EntityManager } from 'typeorm';
import { isFinalStatus, type MovementStatus, PENDING_STATUS, SCHEDULED_STATUS } from '../domain';
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
 * Writes the end of a wait of a movement never sent (AWAITING_APPROVAL, SCHEDULED; a claim's releases are
 * writeReleaseRecords'), in the caller's transaction,
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
    nextQueryAtMs: change.to === PENDING_STATUS ? now : null,
    finalAtMs: isFinalStatus(change.to) ? now : null,
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
      finalAtMs: changed.finalAtMs,
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

const RELEASE_HISTORY_COLUMNS = 8;

/**
 * What the release of scheduled transfers writes besides their rows (SCHEDULED → PENDING, which the claim that
 * releases them updates in the statement that leases them): their history rows in one statement, then each one's
 * events and audit row, as writeUnsentChange writes one, in the caller's transaction. `released`: the movements as
 * the release left them.
 */
export async function writeReleaseRecords(
  manager: EntityManager,
  context: StoreContext,
  released: readonly MovementRecord[],
  now: number,
): Promise<void> {
  if (released.length === 0) return;
  const values = released.map(() => `(${Array(RELEASE_HISTORY_COLUMNS).fill('?').join(', ')})`).join(', ');
  const inserted = await queryWithCount(
    manager,
    context.engine.sql(`INSERT INTO "giro_movement_history"
      ("origin_id", "from_status", "to_status", "at_ms", "source", "detail", "actor_key_id", "actor_name")
      VALUES ${values} RETURNING *`),
    released.flatMap((movement) => [
      movement.originId,
      SCHEDULED_STATUS,
      PENDING_STATUS,
      now,
      'release',
      null,
      null,
      null,
    ]),
  );
  const historyOf = new Map(
    (inserted.records ?? []).map((record) => {
      const history = toHistoryRecord(historyFromRow(record));
      return [history.originId, history] as const;
    }),
  );
  for (const movement of released) {
    const history = historyOf.get(movement.originId) as HistoryRecord;
    if (context.outbox) {
      // A copy: the events' writer adds the movement's history to what it is given.
      const change = { movement: { ...movement }, appended: [history], cancellation: null };
      await writeMovementChangeEvents(manager, context, context.outbox, change, now);
    }
    await context.audit?.recordChange(manager, {
      originId: movement.originId,
      before: { status: SCHEDULED_STATUS },
      after: { status: PENDING_STATUS },
    });
  }
}
