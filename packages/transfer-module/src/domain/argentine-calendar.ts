// Argentina's bank calendar: the days no transfer is released on. National holidays (Law 27.399, with the
// movable ones on the day the government set) and the "días no laborables con fines turísticos", on which the
// banks do not open either, plus Holy Thursday (a non-working day the banks keep). Christmas Eve and New
// Year's Eve are business days. The bridge days are set by decree a year at a time, so the table covers the
// years whose decree is out; a schedule beyond them is refused rather than guessed (`EXTRA_HOLIDAYS` adds the
// days a bank announces later).

/** The holidays of each covered year, `YYYY-MM-DD`. */
const NATIONAL_HOLIDAYS: Readonly<Record<number, readonly string[]>> = {
  2026: [
    '2026-01-01',
    '2026-02-16',
    '2026-02-17',
    '2026-03-23',
    '2026-03-24',
    '2026-04-02',
    '2026-04-03',
    '2026-05-01',
    '2026-05-25',
    '2026-06-15',
    '2026-06-20',
    '2026-07-09',
    '2026-07-10',
    '2026-08-17',
    '2026-10-12',
    '2026-11-23',
    '2026-12-07',
    '2026-12-08',
    '2026-12-25',
  ],
  2027: [
    '2027-01-01',
    '2027-02-08',
    '2027-02-09',
    '2027-03-24',
    '2027-03-25',
    '2027-03-26',
    '2027-04-02',
    '2027-05-01',
    '2027-05-25',
    '2027-06-20',
    '2027-06-21',
    '2027-07-09',
    '2027-08-16',
    '2027-10-11',
    '2027-11-20',
    '2027-12-08',
    '2027-12-25',
  ],
};

/** The years whose holidays the calendar knows. */
export const CALENDAR_YEARS: readonly number[] = Object.keys(NATIONAL_HOLIDAYS).map(Number);

const DAY_MS = 24 * 60 * 60 * 1000;

/** Which days are business days: the national table plus the configured extra holidays, weekends excluded. */
export class BankCalendar {
  private readonly holidays: ReadonlySet<string>;

  constructor(extraHolidays: readonly string[] = []) {
    this.holidays = new Set([...Object.values(NATIONAL_HOLIDAYS).flat(), ...extraHolidays]);
  }

  /** Whether the calendar knows the holidays of `day`'s year. */
  covers(day: string): boolean {
    return CALENDAR_YEARS.includes(Number(day.slice(0, 4)));
  }

  isBusinessDay(day: string): boolean {
    const weekday = new Date(`${day}T00:00:00Z`).getUTCDay();
    return weekday !== 0 && weekday !== 6 && !this.holidays.has(day);
  }

  /** The first business day after `day` (`next`) or before it (`previous`); `day` itself when it is one. */
  businessDayFrom(day: string, direction: 'next' | 'previous'): string {
    let at = Date.parse(`${day}T00:00:00Z`);
    const step = direction === 'next' ? DAY_MS : -DAY_MS;
    // A run of non-business days is at most a long weekend with bridge days: a few steps.
    while (!this.isBusinessDay(new Date(at).toISOString().slice(0, 10))) at += step;
    return new Date(at).toISOString().slice(0, 10);
  }
}
