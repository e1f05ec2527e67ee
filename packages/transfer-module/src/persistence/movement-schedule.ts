import type { EntityManager } from 'typeorm';
import { CANCELED_STATUS, type MovementStatus, PENDING_STATUS, SCHEDULED_STATUS } from '../domain';
import { queryWithCount } from './engine/query-with-count';
import { historyFromRow } from './engine/raw-rows';
import { MovementEntity } from './entities';
import type { LimitUsage } from './limit-usage';
import { writeMovementChangeEvents } from './movement-change-events';
import {
  type HistoryRecord,
  type MovementRecord,
  type RecordedActor,
  toHistoryRecord,
  toMovementRecord,
} from './movement-records';
import { TransferNotScheduledError } from './persistence.errors';
import { checkActor, checkInteger, checkOriginId, MAX_BATCH_SIZE } from './store-arguments';
import type { StoreContext } from './store-context';

/** A scheduled transfer's change written: the movement as it left it, and the history row it appended. */
export interface ScheduleOutcome {
  movement: MovementRecord;
  history: HistoryRecord;
}

const DUE = `SELECT "origin_id" FROM "giro_movements" WHERE "status" = '${SCHEDULED_STATUS}'
      AND "execute_at_ms" <= ? ORDER BY "execute_at_ms", "origin_id" LIMIT ?`;
const NEXT_RELEASE = `SELECT MIN("execute_at_ms") AS "at" FROM "giro_movements" WHERE "status" = '${SCHEDULED_STATUS}'`;
const INSERT_HISTORY = `INSERT INTO "giro_movement_history"
  ("origin_id", "from_status", "to_status", "at_ms", "source", "detail", "actor_key_id", "actor_name")
  VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING *`;

/**
 * MovementStore's scheduled transfers: the release of those whose moment came (SCHEDULED → PENDING, due at once:
 * the sweep sends them as any new transfer), and their cancellation before it (→ CANCELED, final, never sent).
 * Both lock the movement and check that it is still SCHEDULED, so a cancel racing the release decides once.
 */
export class MovementSchedule {
  constructor(
    private readonly context: StoreContext,
    private readonly usage?: LimitUsage,
  ) {}

  /**
   * Releases at most `limit` scheduled transfers whose moment is past, earliest first, in one transaction; returns
   * them. Replicas may run it at once: each is released once (Postgres skips the rows another transaction holds).
   */
  async releaseDue(limit: number): Promise<ScheduleOutcome[]> {
    checkInteger(limit, 'limit', 1, MAX_BATCH_SIZE);
    const now = this.context.nowMs();
    const { engine } = this.context;
    const released = await this.context.transactions.write(async (manager) => {
      const due: { origin_id: string | number }[] = await manager.query(engine.sql(`${DUE}${engine.skipLocked()}`), [
        now,
        limit,
      ]);
      const outcomes: ScheduleOutcome[] = [];
      for (const { origin_id } of due) {
        const row = await this.context.getMovement(manager, Number(origin_id));
        outcomes.push(await this.change(manager, row, { to: PENDING_STATUS, source: 'release', by: null }, now));
      }
      return outcomes;
    });
    if (released.length > 0) this.context.outbox?.committed();
    return released;
  }

  /** The earliest moment a scheduled transfer waits for (maybe past), or null when none waits. */
  async nextReleaseAt(): Promise<Date | null> {
    return this.context.transactions.read(async (manager) => {
      const [row] = await manager.query(NEXT_RELEASE);
      return row?.at === null || row?.at === undefined ? null : new Date(Number(row.at));
    });
  }

  /**
   * Ends a SCHEDULED transfer CANCELED: final, never sent, its share of its account's limits free again. Throws
   * TransferNotScheduledError when it is not SCHEDULED (any more), MovementNotFoundError.
   */
  async cancel(originId: number, by: RecordedActor | null): Promise<ScheduleOutcome> {
    checkOriginId(originId);
    const actor = by === null ? null : checkActor(by, 'by');
    const now = this.context.nowMs();
    const outcome = await this.context.transactions.write(async (manager) => {
      const row = await this.context.getMovement(manager, originId, { lock: true });
      if (row.status !== SCHEDULED_STATUS) throw new TransferNotScheduledError(originId, row.status);
      return this.change(manager, row, { to: CANCELED_STATUS, source: 'cancel', by: actor }, now);
    });
    this.context.outbox?.committed();
    return outcome;
  }

  /** Writes a scheduled transfer's change, in the caller's transaction: the movement, its history, limits, events. */
  private async change(
    manager: EntityManager,
    row: MovementEntity,
    change: { to: MovementStatus; source: 'release' | 'cancel'; by: RecordedActor | null },
    now: number,
  ): Promise<ScheduleOutcome> {
    const released = change.to === PENDING_STATUS;
    // Released: due at once, like a new intent (a sweep sends it).
    const nextQueryAtMs = released ? now : null;
    const version = row.version + 1;
    await manager
      .createQueryBuilder()
      .update(MovementEntity)
      .set({ status: change.to, nextQueryAtMs, version, updatedAtMs: now })
      .where('"origin_id" = :originId', { originId: row.originId })
      .andWhere('"status" = :scheduled', { scheduled: SCHEDULED_STATUS })
      .execute();
    const result = await queryWithCount(manager, this.context.engine.sql(INSERT_HISTORY), [
      row.originId,
      SCHEDULED_STATUS,
      change.to,
      now,
      change.source,
      null,
      change.by?.keyId ?? null,
      change.by?.name ?? null,
    ]);
    const history = toHistoryRecord(historyFromRow((result.records ?? [])[0]));
    const movement = toMovementRecord({ ...row, status: change.to, nextQueryAtMs, version, updatedAtMs: now });
    // A transfer that will never go out gives its share of its account's day back, like FAILED.
    if (!released && row.usageDay !== null && this.usage) {
      await this.usage.free(manager, {
        address: movement.intent.from.address,
        day: row.usageDay,
        amount: movement.amount,
      });
    }
    if (this.context.outbox) {
      await writeMovementChangeEvents(
        manager,
        this.context,
        this.context.outbox,
        { movement, appended: [history], cancellation: null },
        now,
      );
    }
    // Last: the audit row (an operator's request; none for a release) holds the trail's lock until the commit.
    if (!released) {
      await this.context.audit?.recordChange(manager, {
        originId: row.originId,
        before: { status: row.status },
        after: { status: change.to },
      });
    }
    return { movement, history };
  }
}
