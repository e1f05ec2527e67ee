import type { BankCalendar } from './argentine-calendar';

const DAY_MS = 24 * 60 * 60 * 1000;

/** The days from `from` to `to`, both included (`YYYY-MM-DD`, from ≤ to). */
export function daysBetween(from: string, to: string): string[] {
  const days: string[] = [];
  for (let at = Date.parse(`${from}T00:00:00Z`); at <= Date.parse(`${to}T00:00:00Z`); at += DAY_MS) {
    days.push(new Date(at).toISOString().slice(0, 10));
  }
  return days;
}

/**
 * Whether a transfer of `day` is overdue in the bank's statement on `today`: more than `graceDays` business days
 * have ended since (the business days after `day`, up to `today` included, are more than the grace).
 */
export function isPastStatementGrace(calendar: BankCalendar, day: string, today: string, graceDays: number): boolean {
  if (day >= today) return false;
  let businessDays = 0;
  for (const later of daysBetween(day, today).slice(1)) {
    if (calendar.isBusinessDay(later)) businessDays++;
    if (businessDays > graceDays) return true;
  }
  return false;
}
