// The day a daily limit counts in: a calendar day of Argentina (America/Argentina/Buenos_Aires), whatever the
// time zone of the machine. Argentina has kept UTC−03:00 all year since 2009 (no daylight saving time), so the
// day is read off the clock's instant shifted by three hours, with no time-zone database: a day runs from
// 03:00 UTC to 03:00 UTC the next day. Should Argentina ever bring daylight saving time back, this offset is
// the one place to change.

/** The time zone whose calendar days the daily limits count. */
export const BUSINESS_TIME_ZONE = 'America/Argentina/Buenos_Aires';

/** Buenos Aires' offset from UTC, in milliseconds (UTC−03:00, the same all year). */
export const BUSINESS_UTC_OFFSET_MS = -3 * 60 * 60 * 1000;

const DAY_KEY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The calendar day in Buenos Aires at `at`, as `YYYY-MM-DD` (the key of a day's usage). */
export function businessDayOf(at: Date): string {
  const ms = at instanceof Date ? at.getTime() : Number.NaN;
  if (!Number.isFinite(ms)) throw new RangeError(`businessDayOf: not a valid date: ${String(at)}`);
  // toISOString of the shifted instant gives its UTC calendar date, which is the date in Buenos Aires.
  return new Date(ms + BUSINESS_UTC_OFFSET_MS).toISOString().slice(0, 10);
}

/** When a day key's day starts (00:00 in Buenos Aires) and ends (the next day's start), as instants. */
export function businessDayBounds(day: string): { start: Date; end: Date } {
  const match = DAY_KEY.exec(day);
  const utcMidnight = match ? Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])) : Number.NaN;
  if (!Number.isFinite(utcMidnight) || new Date(utcMidnight).toISOString().slice(0, 10) !== day) {
    throw new RangeError(`businessDayBounds: not a day key (YYYY-MM-DD): ${JSON.stringify(day)}`);
  }
  const start = utcMidnight - BUSINESS_UTC_OFFSET_MS;
  return { start: new Date(start), end: new Date(start + 24 * 60 * 60 * 1000) };
}

/** The day before a day key's day. */
export function previousBusinessDay(day: string): string {
  return businessDayOf(new Date(businessDayBounds(day).start.getTime() - 1));
}

/** The days after `after` (null: none before) up to and including `through`, oldest first; at most the last `max`. */
export function daysAfter(after: string | null, through: string, max: number): string[] {
  const days: string[] = [];
  for (let day = through; days.length < max && (after === null || day > after); day = previousBusinessDay(day)) {
    days.unshift(day);
    if (after === null) break;
  }
  return days;
}

/**
 * How long after a day's end its close is announced (`report.daily_closed`): a transfer stored in the day's last
 * moment has committed by then.
 */
export const DAILY_CLOSE_MARGIN_MS = 5 * 60 * 1000;
