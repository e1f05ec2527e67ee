import { ManualClock, systemClock } from './clock';

describe('clocks', () => {
  it('a manual clock moves only when told', () => {
    const clock = new ManualClock(new Date('2025-03-01T12:00:00Z'));
    expect(clock.now().toISOString()).toBe('2025-03-01T12:00:00.000Z');
    clock.advance(5_000);
    expect(clock.now().toISOString()).toBe('2025-03-01T12:00:05.000Z');
    clock.set(0);
    expect(clock.now().getTime()).toBe(0);
  });

  it('a manual clock hands out copies, so callers cannot move it', () => {
    const clock = new ManualClock(1_000);
    clock.now().setTime(99_999);
    expect(clock.now().getTime()).toBe(1_000);
  });

  it('the system clock reads the real time', () => {
    const before = Date.now();
    const now = systemClock.now().getTime();
    expect(now).toBeGreaterThanOrEqual(before);
    expect(now).toBeLessThanOrEqual(Date.now());
  });
});
