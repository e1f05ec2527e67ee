import { CANCELED_STATUS, SCHEDULED_STATUS } from '../domain';
import type { LimitUsage } from './limit-usage';
import type { RecordedActor } from './movement-records';
import { TransferNotScheduledError } from './persistence.errors';
import { checkActor, checkOriginId } from './store-arguments';
import type { StoreContext } from './store-context';
import { type UnsentChangeOutcome, writeUnsentChange } from './unsent-change';

/** A scheduled transfer's change written: the movement as it left it, and the history row it appended. */
export type ScheduleOutcome = UnsentChangeOutcome;

const CANCEL = { to: CANCELED_STATUS, source: 'cancel', detail: null } as const;

/**
 * MovementStore's scheduled transfers: their cancellation before their moment (→ CANCELED, final, never sent). Their
 * release is the claim's (MovementLeases.claimDue). Both lock the movement and change it only while it is still
 * SCHEDULED, so a cancel racing the release decides once.
 */
export class MovementSchedule {
  constructor(
    private readonly context: StoreContext,
    private readonly usage?: LimitUsage,
  ) {}

  /** The earliest moment a scheduled transfer waits for (maybe past), or null when none waits. */
  async nextReleaseAt(): Promise<Date | null> {
    return this.context.transactions.read(async (manager) => {
      const [row] = await manager.query(
        `SELECT MIN("execute_at_ms") AS "at" FROM "giro_movements" WHERE "status" = '${SCHEDULED_STATUS}'`,
      );
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
