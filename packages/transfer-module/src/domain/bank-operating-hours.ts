import type { BankCalendar } from './argentine-calendar';
import { businessDayBounds, businessDayOf } from './business-day';

// The hours the bank takes transfers: a daily window in Buenos Aires (`08:00-20:00`), on business days only (the
// schedule's calendar: weekends, national holidays, the extra holidays). Outside it giro sends nothing: a new
// transfer is stored and waits, the sweep neither releases scheduled transfers nor sends creations; it still
// follows up the transfers the bank already has.

const MINUTE_MS = 60_000;
const TIME = /^(?:([01]\d|2[0-3]):([0-5]\d)|(24):(00))$/;

/** A range's format problem: `HH:MM-HH:MM`, the opening before the closing (the closing may be `24:00`). */
export function operatingHoursProblem(text: string): string | undefined {
  const [open, close, ...rest] = text.split('-');
  if (rest.length > 0 || open === undefined || close === undefined || !TIME.test(open) || !TIME.test(close)) {
    return 'must be a range of times HH:MM-HH:MM, like 08:00-20:00';
  }
  if (minuteOf(open) >= minuteOf(close)) return `must open before it closes, got ${text}`;
  return undefined;
}

function minuteOf(time: string): number {
  const [hours, minutes] = time.split(':').map(Number);
  return hours * 60 + minutes;
}

export class BankOperatingHours {
  private constructor(
    /** Minutes after midnight (Buenos Aires) the window opens at, and closes at (excluded). */
    readonly openMinute: number,
    readonly closeMinute: number,
    private readonly calendar: BankCalendar,
  ) {}

  /** The window `HH:MM-HH:MM` on the calendar's business days; a RangeError names the setting and the rule. */
  static parse(text: string, calendar: BankCalendar, setting = 'bankOperatingHours'): BankOperatingHours {
    const problem = typeof text === 'string' ? operatingHoursProblem(text) : 'must be a string HH:MM-HH:MM';
    if (problem !== undefined) throw new RangeError(`${setting} ${problem}`);
    const [open, close] = text.split('-');
    return new BankOperatingHours(minuteOf(open), minuteOf(close), calendar);
  }

  /** Whether the bank takes transfers at `atMs`. */
  isOpen(atMs: number): boolean {
    const day = businessDayOf(new Date(atMs));
    if (!this.calendar.isBusinessDay(day)) return false;
    const minute = (atMs - businessDayBounds(day).start.getTime()) / MINUTE_MS;
    return minute >= this.openMinute && minute < this.closeMinute;
  }

  /** When the bank next takes transfers: `atMs` itself while open, else the next opening. */
  nextOpeningAt(atMs: number): number {
    if (this.isOpen(atMs)) return atMs;
    const today = businessDayOf(new Date(atMs));
    const openingOf = (day: string) => businessDayBounds(day).start.getTime() + this.openMinute * MINUTE_MS;
    if (this.calendar.isBusinessDay(today) && atMs < openingOf(today)) return openingOf(today);
    const tomorrow = businessDayOf(new Date(businessDayBounds(today).end.getTime()));
    return openingOf(this.calendar.businessDayFrom(tomorrow, 'next'));
  }
}
