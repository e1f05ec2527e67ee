import { toApiDay, typedDay, yesterdayInBuenosAires } from './days';

describe('toApiDay', () => {
  it('reads a day typed day first, as in Argentina, with or without leading zeros', () => {
    expect(toApiDay('24/11/2026')).toBe('2026-11-24');
    expect(toApiDay(' 1/3/2026 ')).toBe('2026-03-01');
    expect(toApiDay('03/04/2026')).toBe('2026-04-03');
  });

  it('passes the API’s own form, and anything else, as typed: the API names the error', () => {
    expect(toApiDay('2026-11-24')).toBe('2026-11-24');
    expect(toApiDay('24-11-2026')).toBe('24-11-2026');
    expect(toApiDay('ayer')).toBe('ayer');
    // Not a day of the calendar: still turned around, and the API refuses 2026-02-30.
    expect(toApiDay('30/2/2026')).toBe('2026-02-30');
  });
});

describe('typedDay', () => {
  it('shows an API day day first, and what it cannot read as it is', () => {
    expect(typedDay('2026-03-01')).toBe('01/03/2026');
    expect(typedDay('')).toBe('');
    expect(typedDay('ayer')).toBe('ayer');
  });

  it('is undone by toApiDay', () => {
    expect(toApiDay(typedDay('2026-11-24'))).toBe('2026-11-24');
  });
});

describe('yesterdayInBuenosAires', () => {
  it('is the day before the Buenos Aires day, which starts at 03:00 UTC', () => {
    expect(yesterdayInBuenosAires(new Date('2026-11-25T02:59:59.999Z'))).toBe('2026-11-23');
    expect(yesterdayInBuenosAires(new Date('2026-11-25T03:00:00.000Z'))).toBe('2026-11-24');
    expect(yesterdayInBuenosAires(new Date('2026-03-01T12:00:00.000Z'))).toBe('2026-02-28');
  });
});
