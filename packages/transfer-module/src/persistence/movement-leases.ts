import type { EntityManager } from 'typeorm';
import { AWAITING_APPROVAL_STATUS, FINAL_STATUSES, isUnsentStatus, PENDING_STATUS, SCHEDULED_STATUS } from '../domain';
import {
  type ClaimTimes,
  inClaimOrder,
  selectDue,
  selectNextDueMs,
  selectScheduledDue,
  selectWakeUpTimes,
  type WakeUpTimes,
} from './engine/due-claim';
import {
  type AccountWeights,
  type FairQueue,
  inRounds,
  PENDING_QUEUE,
  SCHEDULED_QUEUE,
  selectFairShares,
} from './engine/fair-share';
import { MovementEntity } from './entities';
import { type ClaimedMovement, toClaimedMovement } from './movement-records';
import { UnsentMovementError } from './persistence.errors';
import {
  checkDate,
  checkInteger,
  checkLeaseMs,
  checkLeaseOwner,
  checkOriginId,
  MAX_BATCH_SIZE,
} from './store-arguments';
import type { StoreContext } from './store-context';
import type { ClaimDueOptions } from './store-types';
import { writeReleaseRecords } from './unsent-change';

const NO_WEIGHTS: AccountWeights = new Map();

type PlainSelect = (limit: number, excluding: number[]) => Promise<MovementEntity[]>;

// One statement leases the batch and releases its SCHEDULED rows: each becomes PENDING, due since its moment, with
// its first send counted (the lease's worker sends it at once; whoever takes it over after a crash looks it up first).
const RELEASED = `"status" = '${SCHEDULED_STATUS}'`;
const CLAIM = (count: number) => `UPDATE "giro_movements" SET "lease_owner" = ?, "lease_expires_at_ms" = ?,
    "updated_at_ms" = ?, "version" = "version" + 1,
    "attempts" = CASE WHEN ${RELEASED} THEN "attempts" + 1 ELSE "attempts" END,
    "next_query_at_ms" = CASE WHEN ${RELEASED} THEN "execute_at_ms" ELSE "next_query_at_ms" END,
    "approval_expires_at_ms" = CASE WHEN ${RELEASED} THEN NULL ELSE "approval_expires_at_ms" END,
    "status" = CASE WHEN ${RELEASED} THEN '${PENDING_STATUS}' ELSE "status" END
  WHERE "origin_id" IN (${Array(count).fill('?').join(', ')})`;

/**
 * MovementStore's leases: claiming movements (due ones for a sweep, or one for a manual refresh), counting a
 * re-send under the lease, and giving leases up.
 */
export class MovementLeases {
  /** Where the next claim's walk of the accounts with due creations starts (fair-share.ts). */
  private readonly creationsCursor = { after: '' };
  /** Where the next claim's walk of the accounts with scheduled transfers starts. */
  private readonly scheduledCursor = { after: '' };

  constructor(private readonly context: StoreContext) {}

  /**
   * Leases up to `limit` due movements: not final, nextQueryAt ≤ dueBy (default now), lease free or expired.
   * Creations first: PENDING ones never acknowledged, and SCHEDULED ones whose moment is past, released by this
   * claim in the statement that leases them (→ PENDING, due since their moment, their first send counted: the
   * worker sends each at once, `released`), their history rows and events written in the same transaction. The
   * creations are shared among their source accounts (weighted round robin, `accountWeights`; the rest of the
   * batch by due time) and returned in that order, so that a worker sends each account's first one first; then
   * the others by nextQueryAt. Without `creations`, no PENDING or SCHEDULED one. Concurrent claimers never get the
   * same row (Postgres: FOR UPDATE SKIP LOCKED; SQLite: one writer at a time), and a cancel racing the release
   * finds the transfer SCHEDULED or not, once.
   */
  async claimDue(options: ClaimDueOptions): Promise<ClaimedMovement[]> {
    const owner = checkLeaseOwner(options.owner);
    const limit = checkInteger(options.limit, 'limit', 1, MAX_BATCH_SIZE);
    const leaseMs = checkLeaseMs(options.leaseMs);
    const now = options.now === undefined ? this.context.nowMs() : checkDate(options.now, 'now');
    const dueByMs = options.dueBy === undefined ? now : checkDate(options.dueBy, 'dueBy');
    const times = { nowMs: now, dueByMs, claimer: owner };
    const { engine } = this.context;
    const claimed = await this.context.transactions.write(async (manager) => {
      const creationTimes =
        options.creationsDueBy === undefined
          ? times
          : { ...times, dueByMs: checkDate(options.creationsDueBy, 'creationsDueBy') };
      const creations =
        options.creations === false
          ? []
          : await this.dueCreations(manager, creationTimes, limit, options.accountWeights ?? NO_WEIGHTS);
      const others =
        creations.length < limit ? await selectDue(manager, engine, 'others', times, limit - creations.length) : [];
      const due = inClaimOrder(creations, others);
      if (due.length === 0) return [];
      const lease = { leaseOwner: owner, leaseExpiresAtMs: now + leaseMs, updatedAtMs: now };
      const ids = due.map((row) => row.originId);
      await manager.query(engine.sql(CLAIM(ids.length)), [
        lease.leaseOwner,
        lease.leaseExpiresAtMs,
        lease.updatedAtMs,
        ...ids,
      ]);
      const records = due.map((row) => toClaimedMovement(row, lease));
      await writeReleaseRecords(
        manager,
        this.context,
        records.filter((record) => record.released),
        now,
      );
      return records;
    });
    if (claimed.some((record) => record.released)) this.context.outbox?.committed();
    return claimed;
  }

  /**
   * Due creations: PENDING movements and SCHEDULED ones whose moment came, each queue's source accounts their
   * share first (fair-share.ts), each queue filled by due time, then both in rounds.
   */
  private async dueCreations(
    manager: EntityManager,
    times: ClaimTimes,
    limit: number,
    weights: AccountWeights,
  ): Promise<MovementEntity[]> {
    const { engine } = this.context;
    const fair = async (queue: FairQueue, cursor: { after: string }, plain: PlainSelect) => {
      const shared = await selectFairShares(manager, engine, queue, times, limit, weights, cursor);
      if (shared === null) return plain(limit, []);
      if (shared.length >= limit) return shared;
      return [
        ...shared,
        ...(await plain(
          limit - shared.length,
          shared.map((row) => row.originId),
        )),
      ];
    };
    const pending = await fair(PENDING_QUEUE, this.creationsCursor, (count, taken) =>
      selectDue(manager, engine, 'pending', times, count, taken),
    );
    const scheduled = await fair(SCHEDULED_QUEUE, this.scheduledCursor, (count, taken) =>
      selectScheduledDue(manager, engine, times.dueByMs, count, taken),
    );
    return inRounds([...pending, ...scheduled], weights).slice(0, limit);
  }

  /**
   * The earliest nextQueryAt among movements not final and not under an unexpired lease (what a claim could
   * take once due, possibly already past); null when there is none. For a scheduler's next wake-up.
   */
  async nextDueAt(): Promise<Date | null> {
    const now = this.context.nowMs();
    return this.context.transactions.read(async (manager) => {
      const dueMs = await selectNextDueMs(manager, this.context.engine, now);
      return dueMs === null ? null : new Date(dueMs);
    });
  }

  /**
   * What a sweep's next wake-up is the earliest of, read at once (due-claim.ts, wakeUpStatement): the next due
   * time (without `creations`, PENDING movements left out), the next approval expiry, the next scheduled moment.
   */
  async wakeUpTimes(creations: boolean): Promise<WakeUpTimes> {
    const now = this.context.nowMs();
    return this.context.transactions.read((manager) => selectWakeUpTimes(manager, this.context.engine, now, creations));
  }

  /**
   * Leases one movement whatever its schedule (a manual refresh). Null when someone holds an unexpired lease
   * on it (this owner included: a lease is exclusive to one piece of work), unless its owner is a replica gone
   * silent (EngineAdapter.heldBySilentOwner, as for a sweep's claim): the refresh then waits DELAYED's rule from the old lease's
   * expiry, as after any takeover (`abandonedLeaseExpiredAt`).
   */
  async claim(originId: number, owner: string, leaseMs: number): Promise<ClaimedMovement | null> {
    checkOriginId(originId);
    checkLeaseOwner(owner);
    checkLeaseMs(leaseMs);
    const now = this.context.nowMs();
    return this.context.transactions.write(async (manager) => {
      const row = await this.context.getMovement(manager, originId, { lock: true });
      // Whoever asks, a transfer that must not go out is never handed to a worker that could send it.
      if (isUnsentStatus(row.status)) throw new UnsentMovementError(originId, row.status);
      const leased = row.leaseExpiresAtMs !== null && row.leaseExpiresAtMs > now;
      if (leased && !(await this.context.engine.heldBySilentOwner(manager, originId, owner, now))) return null;
      const lease = { leaseOwner: owner, leaseExpiresAtMs: now + leaseMs, updatedAtMs: now };
      await manager
        .createQueryBuilder()
        .update(MovementEntity)
        .set({ ...lease, version: () => '"version" + 1' })
        .where('"origin_id" = :originId', { originId })
        .execute();
      return toClaimedMovement(row, lease);
    });
  }

  /**
   * Counts one more send, durably, before a re-send. False means "do not send": the lease is not the
   * caller's, or the movement is final.
   */
  async markSendAttempt(originId: number, owner: string): Promise<boolean> {
    checkOriginId(originId);
    checkLeaseOwner(owner);
    const now = this.context.nowMs();
    return this.context.transactions.write(async (manager) => {
      const result = await this.fencedUpdate(manager, originId, owner, now)
        .set({ attempts: () => '"attempts" + 1', version: () => '"version" + 1', updatedAtMs: now })
        .andWhere('"status" NOT IN (:...unsendable)', {
          unsendable: [...FINAL_STATUSES, AWAITING_APPROVAL_STATUS, SCHEDULED_STATUS],
        })
        .execute();
      return result.affected === 1;
    });
  }

  /** Gives up the caller's lease; false when it was not the caller's. */
  async releaseLease(originId: number, owner: string): Promise<boolean> {
    checkOriginId(originId);
    checkLeaseOwner(owner);
    const now = this.context.nowMs();
    return this.context.transactions.write(async (manager) => {
      const result = await this.leaseRelease(manager, owner, now)
        .andWhere('"origin_id" = :originId', { originId })
        .execute();
      return result.affected === 1;
    });
  }

  /** Gives up every lease of `owner` (graceful shutdown); returns how many. */
  async releaseAllLeases(owner: string): Promise<number> {
    checkLeaseOwner(owner);
    const now = this.context.nowMs();
    return this.context.transactions.write(async (manager) => {
      const result = await this.leaseRelease(manager, owner, now).execute();
      return result.affected ?? 0;
    });
  }

  /** An UPDATE of one movement that matches only while `owner` holds an unexpired lease on it. */
  private fencedUpdate(manager: EntityManager, originId: number, owner: string, nowMs: number) {
    return manager
      .createQueryBuilder()
      .update(MovementEntity)
      .where('"origin_id" = :originId', { originId })
      .andWhere('"lease_owner" = :owner', { owner })
      .andWhere('"lease_expires_at_ms" > :now', { now: nowMs });
  }

  private leaseRelease(manager: EntityManager, owner: string, nowMs: number) {
    return manager
      .createQueryBuilder()
      .update(MovementEntity)
      .set({ leaseOwner: null, leaseExpiresAtMs: null, updatedAtMs: nowMs, version: () => '"version" + 1' })
      .where('"lease_owner" = :owner', { owner });
  }
}
