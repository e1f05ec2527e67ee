import { BankCalendar, CALENDAR_YEARS } from './argentine-calendar';

// The national holidays and non-working days as the government published them (Law 27.399 and the decrees of
// the "días no laborables con fines turísticos"), with Holy Thursday, when the banks close.
const OFFICIAL: Record<number, string[]> = {
  2026: [
    '01-01',
    '02-16',
    '02-17',
    '03-23',
    '03-24',
    '04-02',
    '04-03',
    '05-01',
    '05-25',
    '06-15',
    '06-20',
    '07-09',
    '07-10',
    '08-17',
    '10-12',
    '11-23',
    '12-07',
    '12-08',
    '12-25',
  ],
  2027: [
    '01-01',
    '02-08',
    '02-09',
    '03-24',
    '03-25',
    '03-26',
    '04-02',
    '05-01',
    '05-25',
    '06-20',
    '06-21',
    '07-09',
    '08-16',
    '10-11',
    '11-20',
    '12-08',
    '12-25',
  ],
};

/** Every day of a year, `YYYY-MM-DD`. */
function daysOf(year: number): string[] {
  const days: string[] = [];
  for (let at = Date.UTC(year, 0, 1); new Date(at).getUTCFullYear() === year; at += 86_400_000) {
    days.push(new Date(at).toISOString().slice(0, 10));
  }
  return days;
}

describe("Argentina's bank calendar", () => {
  const calendar = new BankCalendar();

  it.each(CALENDAR_YEARS)('holds in %i exactly the official holidays and the weekends as non-business days', (year) => {
    const holidays = OFFICIAL[year].map((day) => `${year}-${day}`);
    for (const day of daysOf(year)) {
      const weekday = new Date(`${day}T00:00:00Z`).getUTCDay();
      const expected = !(weekday === 0 || weekday === 6 || holidays.includes(day));
      expect([day, calendar.isBusinessDay(day)]).toEqual([day, expected]);
    }
  });

  it('covers the years of the table only', () => {
    expect(CALENDAR_YEARS).toEqual([2026, 2027]);
    expect(calendar.covers('2027-12-31')).toBe(true);
    expect(calendar.covers('2028-01-03')).toBe(false);
  });

  it('keeps Christmas Eve and New Year’s Eve as business days, and takes a bank’s own closing as extra', () => {
    expect(calendar.isBusinessDay('2026-12-24')).toBe(true);
    expect(calendar.isBusinessDay('2026-12-31')).toBe(true);
    expect(new BankCalendar(['2026-12-24']).isBusinessDay('2026-12-24')).toBe(false);
  });

  it('walks to the next or the previous business day across a long weekend', () => {
    // Friday 2026-03-20 is a business day; Monday 23 and Tuesday 24 are not.
    expect(calendar.businessDayFrom('2026-03-21', 'next')).toBe('2026-03-25');
    expect(calendar.businessDayFrom('2026-03-24', 'previous')).toBe('2026-03-20');
    expect(calendar.businessDayFrom('2026-03-25', 'next')).toBe('2026-03-25');
  });
});
