import fc from 'fast-check';
import type { MovementStatus } from './bank-status';
import { PollingPolicy } from './polling-policy';

const LAST = new Date('2025-03-01T12:00:00.000Z');
const at = (ms: number) => new Date(LAST.getTime() + ms);
const pollable = fc.constantFrom<MovementStatus>('PENDING', 'CREATED', 'IN_PROGRESS', 'DELAYED');
const lastAnswer = fc.date({
  min: new Date('2000-01-01T00:00:00Z'),
  max: new Date('2100-01-01T00:00:00Z'),
  noInvalidDate: true,
});
// Anything a caller might pass, sensible or not.
const anyNumber = fc.oneof(fc.double(), fc.integer({ min: -5, max: 60 }), fc.constant(undefined));
const options = fc.record({
  minIntervalMs: fc.double({ min: 0.5, max: 120_000, noNaN: true }),
  delayedMinIntervalMs: fc.double({ min: 0.5, max: 3_600_000, noNaN: true }),
  maxJitterMs: fc.double({ min: 0, max: 60_000, noNaN: true }),
  maxBackoffMs: fc.double({ min: 0, max: 3_600_000, noNaN: true }),
});

describe('PollingPolicy', () => {
  const policy = new PollingPolicy();

  it('uses the spec intervals by default', () => {
    expect(policy.earliestQueryAt('CREATED', LAST)).toEqual(at(5_000));
    expect(policy.earliestQueryAt('IN_PROGRESS', LAST)).toEqual(at(5_000));
    expect(policy.earliestQueryAt('PENDING', LAST)).toEqual(at(5_000));
    expect(policy.earliestQueryAt('DELAYED', LAST)).toEqual(at(600_001));
  });

  it('allows a CREATED query at exactly 5 s, not a millisecond sooner', () => {
    expect(policy.isQueryAllowed('CREATED', LAST, at(4_999))).toBe(false);
    expect(policy.isQueryAllowed('CREATED', LAST, at(5_000))).toBe(true);
  });

  it('allows a DELAYED query only strictly after 10 minutes', () => {
    expect(policy.isQueryAllowed('DELAYED', LAST, at(600_000))).toBe(false);
    expect(policy.isQueryAllowed('DELAYED', LAST, at(600_001))).toBe(true);
  });

  it('never polls a final movement', () => {
    expect(policy.isQueryAllowed('COMPLETED', LAST, at(10 ** 9))).toBe(false);
    expect(policy.isQueryAllowed('FAILED', LAST, at(10 ** 9))).toBe(false);
    expect(() => policy.earliestQueryAt('COMPLETED', LAST)).toThrow('COMPLETED is final, it is never polled');
    expect(() => policy.nextQueryAt('FAILED', LAST)).toThrow('FAILED is final, it is never polled');
  });

  it('lets a final movement be asked again on demand no sooner than minIntervalMs after its last answer', () => {
    expect(policy.earliestRecheckAt(LAST)).toEqual(at(5_000));
    expect(new PollingPolicy({ minIntervalMs: 100.5 }).earliestRecheckAt(LAST)).toEqual(at(101));
    expect(() => policy.earliestRecheckAt(new Date(Number.NaN))).toThrow('lastAnswerAt must be a valid Date');
  });

  it('never schedules a query earlier than the rule, for any status, pressure, failures or random source', () => {
    fc.assert(
      fc.property(
        options,
        pollable,
        lastAnswer,
        anyNumber,
        anyNumber,
        anyNumber,
        (opts, status, last, pressure, failures, r) => {
          const custom = new PollingPolicy(opts);
          const next = custom.nextQueryAt(status, last, { pressure, failures, random: () => r as number }).getTime();
          const earliest = custom.earliestQueryAt(status, last).getTime();
          expect(Number.isNaN(next)).toBe(false);
          expect(next).toBeGreaterThanOrEqual(earliest);
          // Compare waits (exact integers), not sums with a fractional interval that a double would round.
          const wait = earliest - last.getTime();
          if (status === 'DELAYED') {
            expect(wait).toBeGreaterThan(opts.delayedMinIntervalMs);
          } else {
            expect(wait).toBeGreaterThanOrEqual(opts.minIntervalMs);
          }
          expect(custom.isQueryAllowed(status, last, new Date(next))).toBe(true);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('a DELAYED query is strictly later than the interval even with nothing added', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 3_600_000 }), lastAnswer, (delayedMinIntervalMs, last) => {
        const custom = new PollingPolicy({ delayedMinIntervalMs, maxJitterMs: 0 });
        const next = custom.nextQueryAt('DELAYED', last, { random: () => 0 });
        expect(next.getTime()).toBe(last.getTime() + delayedMinIntervalMs + 1);
        expect(custom.isQueryAllowed('DELAYED', last, new Date(last.getTime() + delayedMinIntervalMs))).toBe(false);
      }),
    );
  });

  it('more backlog pressure never brings the next query closer', () => {
    fc.assert(
      fc.property(
        pollable,
        fc.double({ min: 0, max: 50, noNaN: true }),
        fc.double({ min: 0, max: 50, noNaN: true }),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        (status, a, b, r) => {
          const [low, high] = a <= b ? [a, b] : [b, a];
          const random = () => r;
          const lower = policy.nextQueryAt(status, LAST, { pressure: low, random });
          const higher = policy.nextQueryAt(status, LAST, { pressure: high, random });
          expect(higher.getTime()).toBeGreaterThanOrEqual(lower.getTime());
        },
      ),
    );
  });

  it('stretches the interval by 1 + pressure and ignores negative or NaN pressure', () => {
    const none = () => 0;
    expect(policy.nextQueryAt('CREATED', LAST, { pressure: 1, random: none })).toEqual(at(10_000));
    expect(policy.nextQueryAt('CREATED', LAST, { pressure: 0.5, random: none })).toEqual(at(7_500));
    expect(policy.nextQueryAt('DELAYED', LAST, { pressure: 1, random: none })).toEqual(at(1_200_001));
    expect(policy.nextQueryAt('CREATED', LAST, { pressure: -3, random: none })).toEqual(at(5_000));
    expect(policy.nextQueryAt('CREATED', LAST, { pressure: Number.NaN, random: none })).toEqual(at(5_000));
  });

  it('adds jitter within [0, maxJitterMs]', () => {
    const custom = new PollingPolicy({ maxJitterMs: 2_000 });
    expect(custom.nextQueryAt('CREATED', LAST, { random: () => 0 })).toEqual(at(5_000));
    expect(custom.nextQueryAt('CREATED', LAST, { random: () => 0.5 })).toEqual(at(6_000));
    expect(custom.nextQueryAt('CREATED', LAST, { random: () => 0.9999 })).toEqual(at(7_000));
    // A broken random source cannot move the query earlier or past the jitter bound.
    expect(custom.nextQueryAt('CREATED', LAST, { random: () => -1 })).toEqual(at(5_000));
    expect(custom.nextQueryAt('CREATED', LAST, { random: () => 7 })).toEqual(at(7_000));
  });

  it('backs off exponentially per failure, up to maxBackoffMs', () => {
    const custom = new PollingPolicy({ maxJitterMs: 0, maxBackoffMs: 30_000 });
    const after = (failures: number) => custom.nextQueryAt('CREATED', LAST, { failures }).getTime() - LAST.getTime();
    expect([0, 1, 2, 3, 4, 5, 1_000_000].map(after)).toEqual([5_000, 10_000, 15_000, 25_000, 35_000, 35_000, 35_000]);
  });

  it('uses Math.random when no random source is given', () => {
    const spy = jest.spyOn(Math, 'random').mockReturnValue(0.25);
    try {
      expect(policy.nextQueryAt('CREATED', LAST)).toEqual(at(5_125));
    } finally {
      spy.mockRestore();
    }
  });

  it('bounds the default jitter by 10 % of minIntervalMs: 500 ms at the spec 5 s, 100 ms at a scaled 1 s', () => {
    expect(policy.maxJitterMs).toBe(500);
    expect(policy.nextQueryAt('CREATED', LAST, { random: () => 0.9999 })).toEqual(at(5_500));
    const scaled = new PollingPolicy({ minIntervalMs: 1_000, delayedMinIntervalMs: 4_000 });
    expect(scaled.maxJitterMs).toBe(100);
    expect(scaled.nextQueryAt('IN_PROGRESS', LAST, { random: () => 0.9999 })).toEqual(at(1_100));
    // The bound follows minIntervalMs, also for DELAYED: strictly more than its interval, at most 100 ms more.
    expect(scaled.nextQueryAt('DELAYED', LAST, { random: () => 0.9999 })).toEqual(at(4_100));
  });

  it('keeps an explicit maxJitterMs, 0 included, whatever minIntervalMs is', () => {
    expect(new PollingPolicy({ minIntervalMs: 1_000, maxJitterMs: 2_000 }).maxJitterMs).toBe(2_000);
    const none = new PollingPolicy({ minIntervalMs: 60_000, maxJitterMs: 0 });
    expect(none.maxJitterMs).toBe(0);
    expect(none.nextQueryAt('CREATED', LAST, { random: () => 0.9999 })).toEqual(at(60_000));
  });

  it('with the default jitter, schedules within [the rule, the rule + 10 % of minIntervalMs]', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 120_000 }),
        fc.integer({ min: 1, max: 3_600_000 }),
        pollable,
        lastAnswer,
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        (minIntervalMs, delayedMinIntervalMs, status, last, r) => {
          const custom = new PollingPolicy({ minIntervalMs, delayedMinIntervalMs });
          const next = custom.nextQueryAt(status, last, { random: () => r }).getTime();
          const earliest = custom.earliestQueryAt(status, last).getTime();
          expect(next).toBeGreaterThanOrEqual(earliest);
          // +1: a fraction of a millisecond of jitter is rounded up to a whole one.
          expect(next - earliest).toBeLessThanOrEqual(Math.ceil(minIntervalMs * 0.1) + 1);
        },
      ),
    );
  });

  it.each([
    ['minIntervalMs', 0, 'a positive finite number'],
    ['minIntervalMs', -1, 'a positive finite number'],
    ['delayedMinIntervalMs', Number.NaN, 'a positive finite number'],
    ['delayedMinIntervalMs', Number.POSITIVE_INFINITY, 'a positive finite number'],
    ['maxJitterMs', -1, 'a finite number ≥ 0'],
    ['maxBackoffMs', Number.NaN, 'a finite number ≥ 0'],
  ])('refuses option %s = %p, naming it', (name, value, expected) => {
    expect(() => new PollingPolicy({ [name]: value })).toThrow(
      `PollingPolicy option "${name}" must be ${expected} of milliseconds, got ${value}`,
    );
  });

  it('accepts zero jitter and zero backoff', () => {
    const custom = new PollingPolicy({ maxJitterMs: 0, maxBackoffMs: 0 });
    expect(custom.nextQueryAt('IN_PROGRESS', LAST, { failures: 3, random: () => 0.9 })).toEqual(at(5_000));
  });

  it('refuses an invalid lastAnswerAt', () => {
    expect(() => policy.earliestQueryAt('CREATED', new Date(Number.NaN))).toThrow('lastAnswerAt must be a valid Date');
  });
});
