import { type MovementStatus, PollingPolicy } from '../domain';
import type { ClaimedMovement } from '../persistence';
import { QuerySchedule } from './query-schedule';

const policy = new PollingPolicy({ minIntervalMs: 5_000, delayedMinIntervalMs: 600_000, maxJitterMs: 0 });
const schedule = new QuerySchedule(policy);
const T = new Date(Date.UTC(2026, 0, 5));
const at = (ms: number) => new Date(T.getTime() + ms);

describe('QuerySchedule', () => {
  it('measures backlog pressure against what the budget can query in one polling interval', () => {
    // 10 calls/s × 5 s = 50 queries per interval.
    expect(schedule.pressure(50, 10)).toBe(0);
    expect(schedule.pressure(20, 10)).toBe(0);
    expect(schedule.pressure(100, 10)).toBe(1);
    expect(schedule.pressure(175, 10)).toBe(2.5);
    expect(schedule.pressure(1_000_000, undefined)).toBe(0); // no rate limit: nothing to wait for
  });

  it('never schedules a final movement', () => {
    expect(schedule.afterAnswer('COMPLETED', T, 0)).toBeNull();
    expect(schedule.afterFailure('FAILED', T, 3, 0)).toBeNull();
  });

  it('after a failure, waits for the rule, the backoff and the bank’s Retry-After, whichever is latest', () => {
    expect(schedule.afterFailure('IN_PROGRESS', T, 1, 0)).toEqual(at(10_000));
    expect(schedule.afterFailure('IN_PROGRESS', T, 1, 0, 60_000)).toEqual(at(60_000));
    expect(schedule.afterFailure('DELAYED', T, 1, 0, 60_000)).toEqual(at(605_001));
  });

  describe('after a takeover', () => {
    const claimed = (status: MovementStatus, attempts: number, abandonedLeaseExpiredAt: Date | null) =>
      ({ status, attempts, abandonedLeaseExpiredAt }) as ClaimedMovement;

    it('waits for the DELAYED rule from when the abandoned lease expired: its answer may be unrecorded', () => {
      // The stopped worker may have been answered DELAYED just before its lease expired (at T).
      expect(schedule.afterTakeover(claimed('IN_PROGRESS', 1, T), at(1_000))).toEqual(at(600_001));
      expect(schedule.afterTakeover(claimed('PENDING', 1, T), at(1_000))).toEqual(at(600_001));
      expect(schedule.afterTakeover(claimed('DELAYED', 1, T), at(600_000))).toEqual(at(600_001));
    });

    it('does not wait when the lease was free, the wait is over, it is final, or nothing was ever sent', () => {
      expect(schedule.afterTakeover(claimed('IN_PROGRESS', 1, null), at(1_000))).toBeNull();
      expect(schedule.afterTakeover(claimed('IN_PROGRESS', 1, T), at(600_001))).toBeNull();
      expect(schedule.afterTakeover(claimed('COMPLETED', 1, T), at(1_000))).toBeNull();
      expect(schedule.afterTakeover(claimed('PENDING', 0, T), at(1_000))).toBeNull();
    });
  });
});
