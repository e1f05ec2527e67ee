const TYPED_DAY = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/;
const API_DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * A day as typed in Argentina (`24/11/2026`, `1/3/2026`: day first, whatever the browser's locale) as the admin
 * API reads days (`2026-11-24`). Anything else is passed as typed, for the API to name the error.
 */
export function toApiDay(typed: string): string {
  const value = typed.trim();
  const match = TYPED_DAY.exec(value);
  if (!match) return value;
  const [, day, month, year] = match;
  return `${year}-${month.padStart(2, '0')}-${day.padStart(2, '0')}`;
}

/**
 * An API day (`2026-11-24`) as the console writes days in both languages, shown and typed alike (`24/11/2026`);
 * anything else as it is.
 */
export function typedDay(apiDay: string): string {
  const match = API_DAY.exec(apiDay);
  return match ? `${match[3]}/${match[2]}/${match[1]}` : apiDay;
}

/** Buenos Aires keeps UTC−03:00 all year: its calendar day is the UTC day of the instant three hours earlier. */
const BUENOS_AIRES_OFFSET_MS = -3 * 60 * 60 * 1000;

/** The day before `now`'s day in Buenos Aires, as the API reads days (`2026-11-24`): the last day that ended. */
export function yesterdayInBuenosAires(now: Date = new Date()): string {
  return new Date(now.getTime() + BUENOS_AIRES_OFFSET_MS - 24 * 60 * 60 * 1000).toISOString().slice(0, 10);
}
