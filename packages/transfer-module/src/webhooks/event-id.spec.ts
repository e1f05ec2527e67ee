import { randomBytes } from 'node:crypto';
import { newEventId } from './event-id';

/** The shape of `msg_` and 16 bytes in base64url, as event ids always had it. */
const SHAPE = /^msg_[A-Za-z0-9_-]{21}[AQgw]$/;

describe('newEventId', () => {
  it('keeps the shape of msg_ and 16 random bytes in base64url', () => {
    for (let n = 0; n < 1000; n++) {
      expect(`msg_${randomBytes(16).toString('base64url')}`).toMatch(SHAPE);
      expect(newEventId()).toMatch(SHAPE);
    }
    // The earliest and the latest time it can write: the shape still.
    expect(newEventId(0)).toMatch(SHAPE);
    expect(newEventId(2 ** 48 - 1)).toMatch(SHAPE);
  });

  it('is unique, also among ids of one millisecond', () => {
    const at = Date.now();
    const ids = Array.from({ length: 100_000 }, (_, n) => newEventId(at + (n % 2)));
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('compares as text (byte order) in time order, across every position of its time', () => {
    const times = [0, 1, 63, 64, 4095, 4096, Date.UTC(2026, 0, 1), Date.UTC(2026, 0, 1) + 1, Date.UTC(2100, 0, 1)];
    for (let step = 1; step < 2 ** 47; step *= 7) times.push(step, step + 1);
    const sorted = [...new Set(times)].sort((a, b) => a - b);
    const ids = sorted.map((at) => newEventId(at));
    // JavaScript compares strings by UTF-16 code units: for these ASCII ids, byte order (SQLite BINARY, Postgres C).
    expect([...ids].sort()).toEqual(ids);
  });

  it('grows within a millisecond, by steps that leave the next id unguessable from one id alone', () => {
    const at = Date.UTC(2026, 0, 1);
    const ids = Array.from({ length: 10_000 }, () => newEventId(at));
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
    // One time for all (its 8 characters): the random part alone moved.
    expect(new Set(ids.map((id) => id.slice(0, 12))).size).toBe(1);
  });
});
