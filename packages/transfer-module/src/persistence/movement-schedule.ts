import { CANCELED_STATUS, PENDING_STATUS, SCHEDULED_STATUS } from '../domain';
import type { LimitUsage } from './limit-usage';
import type { RecordedActor } from './movement-records';
import { TransferNotScheduledError } from './persistence.errors';
import { checkActor, checkInteger, checkOriginId, MAX_BATCH_SIZE } from './store-arguments';
import type { StoreContext } from './store-context';
import { type UnsentChangeOutcome, writeUnsentChange } from './unsent-change';

/** A scheduled transfer's change written: the movement as it left it, and the history row it appended. */
export type ScheduleOutcome = UnsentChangeOutcome;

const RELEASE = { to: PENDING_STATUS, source: 'release', detail: null, by: null } as const;
const CANCEL = { to: CANCELED_STATUS, source: 'cancel', detail: null } as const;

const DUE = `SELECT "origin_id" FROM "giro_movements" WHERE "status" = '${SCHEDULED_STATUS}'
      AND "execute_at_ms" <= ? ORDER BY "execute_at_ms", "origin_id" LIMIT ?`;
const NEXT_RELEASE = `SELECT MIN("execute_at_ms") AS "at" FROM "giro_movements" WHERE "status" = '${SCHEDULED_STATUS}'`;

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
        outcomes.push(await writeUnsentChange(manager, this.context, this.usage, row, RELEASE, now));
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
      return writeUnsentChange(manager, this.context, this.usage, row, { ...CANCEL, by: actor }, now);
    });
    this.context.outbox?.committed();
    return outcome;
  }
}
