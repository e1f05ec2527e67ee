import { BUSINESS_TIME_ZONE, businessDayBounds, businessDayOf, daysAfter } from './business-day';

describe('businessDayOf (a calendar day of Buenos Aires, UTC−3)', () => {
  it('changes day at 03:00 UTC, not at midnight UTC', () => {
    expect(businessDayOf(new Date('2026-11-21T02:59:59.999Z'))).toBe('2026-11-20');
    expect(businessDayOf(new Date('2026-11-21T03:00:00.000Z'))).toBe('2026-11-21');
    expect(businessDayOf(new Date('2026-11-21T00:00:00.000Z'))).toBe('2026-11-20');
    expect(businessDayOf(new Date('2026-11-21T23:59:59.999Z'))).toBe('2026-11-21');
  });

  it('crosses months and years, and 29 February, at the same hour', () => {
    expect(businessDayOf(new Date('2027-01-01T02:00:00Z'))).toBe('2026-12-31');
    expect(businessDayOf(new Date('2027-01-01T03:00:00Z'))).toBe('2027-01-01');
    expect(businessDayOf(new Date('2028-03-01T02:59:59Z'))).toBe('2028-02-29');
  });

  it('agrees with the time-zone database for every hour of a year (no daylight saving time)', () => {
    const format = new Intl.DateTimeFormat('en-CA', { timeZone: BUSINESS_TIME_ZONE, dateStyle: 'short' });
    for (let ms = Date.UTC(2026, 0, 1); ms < Date.UTC(2027, 0, 1); ms += 60 * 60 * 1000) {
      const at = new Date(ms);
      expect(businessDayOf(at)).toBe(format.format(at));
    }
  });

  it('refuses an invalid date', () => {
    expect(() => businessDayOf(new Date(Number.NaN))).toThrow(RangeError);
  });
});

describe('businessDayBounds', () => {
  it('runs from 03:00 UTC to 03:00 UTC the next day', () => {
    const { start, end } = businessDayBounds('2026-11-21');
    expect(start.toISOString()).toBe('2026-11-21T03:00:00.000Z');
    expect(end.toISOString()).toBe('2026-11-22T03:00:00.000Z');
    expect(businessDayOf(start)).toBe('2026-11-21');
    expect(businessDayOf(new Date(end.getTime() - 1))).toBe('2026-11-21');
  });

  it('refuses what is not a day key', () => {
    for (const day of ['2026-02-30', '2026-11-21T00', '21/11/2026', '']) {
      expect(() => businessDayBounds(day)).toThrow(/not a day key/);
    }
  });
});

describe('daysAfter (the days a close still owes)', () => {
  it('gives the days after the last one up to the given day, oldest first, across a month and a year', () => {
    expect(daysAfter('2026-12-29', '2027-01-02', 31)).toEqual(['2026-12-30', '2026-12-31', '2027-01-01', '2027-01-02']);
    expect(daysAfter('2026-11-30', '2026-12-01', 31)).toEqual(['2026-12-01']);
  });

  it('gives nothing when the day is already past, only the day itself without a last one, and at most the last max', () => {
    expect(daysAfter('2026-11-23', '2026-11-23', 31)).toEqual([]);
    expect(daysAfter('2026-11-24', '2026-11-23', 31)).toEqual([]);
    expect(daysAfter(null, '2026-11-23', 31)).toEqual(['2026-11-23']);
    expect(daysAfter('2026-01-01', '2026-11-23', 3)).toEqual(['2026-11-21', '2026-11-22', '2026-11-23']);
  });
});
