import { parseRetryAfter, RetrySchedule } from './retry-schedule';

// The schedule of retries: pure arithmetic on the waits, with the jitter's random number injected.

const NOW = Date.UTC(2026, 10, 24, 12, 0, 0);
const DELAYS = [1_000, 10_000, 60_000];

describe('RetrySchedule', () => {
  it('has one attempt more than it has waits', () => {
    expect(new RetrySchedule(DELAYS).maxAttempts).toBe(4);
    expect(new RetrySchedule([]).maxAttempts).toBe(1);
  });

  it('waits each delay in turn after the attempt that failed, without jitter when the random number is 0', () => {
    const schedule = new RetrySchedule(DELAYS, () => 0);
    expect(schedule.afterFailure(1, NOW)).toEqual({ kind: 'retry', atMs: NOW + 1_000 });
    expect(schedule.afterFailure(2, NOW)).toEqual({ kind: 'retry', atMs: NOW + 10_000 });
    expect(schedule.afterFailure(3, NOW)).toEqual({ kind: 'retry', atMs: NOW + 60_000 });
  });

  it('is dead after the last attempt, whatever the receiver asks', () => {
    const schedule = new RetrySchedule(DELAYS, () => 0.5);
    expect(schedule.afterFailure(4, NOW)).toEqual({ kind: 'dead' });
    expect(schedule.afterFailure(4, NOW, 1_000)).toEqual({ kind: 'dead' });
    expect(schedule.afterFailure(12, NOW)).toEqual({ kind: 'dead' });
    expect(new RetrySchedule([], () => 0).afterFailure(1, NOW)).toEqual({ kind: 'dead' });
  });

  it('adds at most a tenth of the wait as jitter, and never takes any away', () => {
    const low = new RetrySchedule(DELAYS, () => 0);
    const high = new RetrySchedule(DELAYS, () => 0.999_999);
    const middle = new RetrySchedule(DELAYS, () => 0.5);
    for (const [attempt, delay] of DELAYS.entries()) {
      const at = (schedule: RetrySchedule) => {
        const next = schedule.afterFailure(attempt + 1, NOW);
        if (next.kind !== 'retry') throw new Error('expected a retry');
        return next.atMs - NOW;
      };
      expect(at(low)).toBe(delay);
      expect(at(middle)).toBe(delay + delay * 0.05);
      expect(at(high)).toBeGreaterThan(delay);
      expect(at(high)).toBeLessThanOrEqual(delay * 1.1);
    }
  });

  it('spreads the retries of many deliveries with the real random numbers, within the bounds', () => {
    const schedule = new RetrySchedule(DELAYS);
    const waits = Array.from({ length: 200 }, () => {
      const next = schedule.afterFailure(2, NOW);
      return next.kind === 'retry' ? next.atMs - NOW : Number.NaN;
    });
    expect(Math.min(...waits)).toBeGreaterThanOrEqual(10_000);
    expect(Math.max(...waits)).toBeLessThanOrEqual(11_000);
    expect(new Set(waits).size).toBeGreaterThan(10);
  });

  it('lengthens a wait to the Retry-After a receiver asks for, never shortens it', () => {
    const schedule = new RetrySchedule(DELAYS, () => 0);
    expect(schedule.afterFailure(1, NOW, 30_000)).toEqual({ kind: 'retry', atMs: NOW + 30_000 });
    expect(schedule.afterFailure(2, NOW, 500)).toEqual({ kind: 'retry', atMs: NOW + 10_000 });
    expect(schedule.afterFailure(2, NOW, 0)).toEqual({ kind: 'retry', atMs: NOW + 10_000 });
  });

  it('caps a Retry-After at the longest wait of the schedule', () => {
    const schedule = new RetrySchedule(DELAYS, () => 0);
    expect(schedule.afterFailure(1, NOW, 3_600_000)).toEqual({ kind: 'retry', atMs: NOW + 60_000 });
    // The jittered wait, when longer than the cap, still stands.
    const jittered = new RetrySchedule(DELAYS, () => 0.5);
    expect(jittered.afterFailure(3, NOW, 3_600_000)).toEqual({ kind: 'retry', atMs: NOW + 63_000 });
  });
});

describe('parseRetryAfter', () => {
  it('reads a number of seconds', () => {
    expect(parseRetryAfter('120', NOW)).toBe(120_000);
    expect(parseRetryAfter('0', NOW)).toBe(0);
    expect(parseRetryAfter(' 7 ', NOW)).toBe(7_000);
  });

  it('reads an HTTP date as the time from now, and a past date as no wait', () => {
    expect(parseRetryAfter(new Date(NOW + 90_000).toUTCString(), NOW)).toBe(90_000);
    expect(parseRetryAfter('Tue, 24 Nov 2026 12:05:00 GMT', NOW)).toBe(300_000);
    expect(parseRetryAfter(new Date(NOW - 90_000).toUTCString(), NOW)).toBe(0);
  });

  it('takes the first of repeated headers', () => {
    expect(parseRetryAfter(['5', '600'], NOW)).toBe(5_000);
  });

  it('ignores what is absent or not a time', () => {
    expect(parseRetryAfter(undefined, NOW)).toBeUndefined();
    expect(parseRetryAfter([], NOW)).toBeUndefined();
    expect(parseRetryAfter('', NOW)).toBeUndefined();
    expect(parseRetryAfter('soon', NOW)).toBeUndefined();
    expect(parseRetryAfter('9999999999', NOW)).toBeUndefined();
  });

  it('asks for no wait when a bad number reads as a past date (V8 parses dates leniently)', () => {
    // '-5' and '1.5' are dates in 2001 to Date.parse: no wait, so the schedule's own wait stands.
    expect(parseRetryAfter('-5', NOW)).toBe(0);
    expect(parseRetryAfter('1.5', NOW)).toBe(0);
  });
});
