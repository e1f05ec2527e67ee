import { isFinalStatus, type MovementStatus, PENDING_STATUS, type PollingPolicy } from '../domain';
import type { ClaimedMovement } from '../persistence';

/**
 * When to ask the bank about a movement next, by the domain's PollingPolicy. After an answer the rule
 * counts from that answer; after a call that got no usable answer it counts from now (later than the last
 * answer, so the rule still holds) and adds the failure backoff. Finals are never asked again (null).
 */
export class QuerySchedule {
  constructor(
    readonly policy: PollingPolicy,
    private readonly random: () => number = Math.random,
  ) {}

  afterAnswer(status: MovementStatus, answeredAt: Date, pressure: number): Date | null {
    if (isFinalStatus(status)) return null;
    return this.policy.nextQueryAt(status, answeredAt, { pressure, random: this.random });
  }

  /** `failures`: calls in a row without a usable answer. `retryAfterMs`: the bank's Retry-After, honoured. */
  afterFailure(
    status: MovementStatus,
    now: Date,
    failures: number,
    pressure: number,
    retryAfterMs?: number,
  ): Date | null {
    if (isFinalStatus(status)) return null;
    const next = this.policy.nextQueryAt(status, now, { failures, pressure, random: this.random }).getTime();
    return new Date(Math.max(next, now.getTime() + (retryAfterMs ?? 0)));
  }

  /**
   * The first query of a movement taken over from a worker that never gave its lease back. That worker may
   * have had an answer from the bank it never recorded, at the latest when its lease expired (no call starts
   * with less than the longest call left on the lease), and its status is unknown: the query waits for the
   * longest rule, DELAYED's, from then. Null when nothing needs to wait: the lease was free, the movement is
   * final, nothing of it was ever sent, or the wait is already over at `now`.
   */
  afterTakeover(movement: ClaimedMovement, now: Date): Date | null {
    const { abandonedLeaseExpiredAt, status, attempts } = movement;
    if (abandonedLeaseExpiredAt === null || isFinalStatus(status)) return null;
    if (status === PENDING_STATUS && attempts === 0) return null;
    const earliest = this.policy.earliestQueryAt('DELAYED', abandonedLeaseExpiredAt);
    return earliest.getTime() > now.getTime() ? earliest : null;
  }

  /**
   * When the first query of a claimed movement may go out, if later than now: after a takeover (afterTakeover),
   * and no sooner than `queriesHeldUntil`, which a query made without the lease (a lookup by another name that
   * turned out to be about it) or a raw answer set. Null when nothing holds it back.
   */
  heldBack(movement: ClaimedMovement, now: Date): Date | null {
    const takeover = this.afterTakeover(movement, now);
    const { queriesHeldUntil } = movement;
    if (queriesHeldUntil === null || queriesHeldUntil.getTime() <= now.getTime()) return takeover;
    return takeover !== null && takeover.getTime() > queriesHeldUntil.getTime() ? takeover : queriesHeldUntil;
  }

  /**
   * Backlog pressure for a sweep: how far the due movements exceed what the budget can query within one
   * polling interval (`ratePerSecond × minIntervalMs`). 0 when they fit, or when calls are not rate-limited;
   * 1 when twice as many are due, which doubles the intervals. It only ever stretches them.
   */
  pressure(due: number, ratePerSecond: number | undefined): number {
    if (ratePerSecond === undefined) return 0;
    const capacity = (ratePerSecond * this.policy.minIntervalMs) / 1000;
    return Math.max(0, due / capacity - 1);
  }
}
