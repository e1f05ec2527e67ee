import type { EntityManager } from 'typeorm';
import { CANCELED_STATUS, SCHEDULED_STATUS } from '../domain';
import { type AccountWeights, SCHEDULED_QUEUE, selectFairShares } from './engine/fair-share';
import { movementFromRow } from './engine/raw-rows';
import type { MovementEntity } from './entities';
import type { LimitUsage } from './limit-usage';
import type { RecordedActor } from './movement-records';
import { TransferNotScheduledError } from './persistence.errors';
import { checkActor, checkDate, checkInteger, checkOriginId, MAX_BATCH_SIZE } from './store-arguments';
import type { StoreContext } from './store-context';
import { type UnsentChangeOutcome, writeReleases, writeUnsentChange } from './unsent-change';

/** A scheduled transfer's change written: the movement as it left it, and the history row it appended. */
export type ScheduleOutcome = UnsentChangeOutcome;

const CANCEL = { to: CANCELED_STATUS, source: 'cancel', detail: null } as const;

const DUE = (excluding: number) => `SELECT * FROM "giro_movements" WHERE "status" = '${SCHEDULED_STATUS}'
      AND "execute_at_ms" <= ?${excluding === 0 ? '' : ` AND "origin_id" NOT IN (${Array(excluding).fill('?').join(', ')})`}
      ORDER BY "execute_at_ms", "origin_id" LIMIT ?`;

/** What a release takes: at most `limit` transfers whose moment is at or before `dueBy` (default now). */
export interface ReleaseOptions {
  limit: number;
  dueBy?: Date;
  /** Source accounts' weights in the release's round robin (fair-share.ts; default 1 each). */
  accountWeights?: AccountWeights;
}

/**
 * MovementStore's scheduled transfers: the release of those whose moment came (SCHEDULED → PENDING, due at once:
 * the sweep sends them as any new transfer), and their cancellation before it (→ CANCELED, final, never sent).
 * Both lock the movement and check that it is still SCHEDULED, so a cancel racing the release decides once.
 */
export class MovementSchedule {
  /** Where the next release's walk of the accounts with scheduled transfers starts (fair-share.ts). */
  private readonly cursor = { after: '' };

  constructor(
    private readonly context: StoreContext,
    private readonly usage?: LimitUsage,
  ) {}

  /**
   * Releases at most `limit` scheduled transfers whose moment is past, shared among their source accounts (each its
   * share in turn, the rest earliest first), in one transaction; returns them. Each is due from its moment (its
   * nextQueryAt), so a sweep that started after that moment claims it. Replicas may run it at once: each is
   * released once (Postgres skips the rows another transaction holds).
   */
  async releaseDue(options: ReleaseOptions): Promise<ScheduleOutcome[]> {
    const limit = checkInteger(options.limit, 'limit', 1, MAX_BATCH_SIZE);
    const now = this.context.nowMs();
    const dueByMs = options.dueBy === undefined ? now : Math.min(now, checkDate(options.dueBy, 'dueBy'));
    const released = await this.context.transactions.write(async (manager) => {
      const due = await this.dueRows(manager, dueByMs, now, limit, options.accountWeights ?? new Map());
      return writeReleases(manager, this.context, due, now);
    });
    if (released.length > 0) this.context.outbox?.committed();
    return released;
  }

  private async dueRows(
    manager: EntityManager,
    dueByMs: number,
    nowMs: number,
    limit: number,
    weights: AccountWeights,
  ): Promise<MovementEntity[]> {
    const { engine } = this.context;
    const times = { dueByMs, nowMs };
    const shared = (await selectFairShares(manager, engine, SCHEDULED_QUEUE, times, limit, weights, this.cursor)) ?? [];
    if (shared.length >= limit) return shared;
    const taken = shared.map((row) => row.originId);
    const rows: Record<string, unknown>[] = await manager.query(
      engine.sql(`${DUE(taken.length)}${engine.skipLocked()}`),
      [dueByMs, ...taken, limit - shared.length],
    );
    return [...shared, ...rows.map(movementFromRow)];
  }

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
