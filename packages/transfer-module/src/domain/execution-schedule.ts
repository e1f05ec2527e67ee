import { BankCalendar, CALENDAR_YEARS } from './argentine-calendar';
import { BankOperatingHours } from './bank-operating-hours';
import { businessDayBounds, businessDayOf } from './business-day';
import type { Problem, Violation } from './violation';

// When a transfer asked for a day (`executeOn`) or a moment (`executeAt`) is released to the bank. A day is a
// Buenos Aires calendar day, released at the configured time of day once the non-business-day policy moved it
// to a business day; a moment is taken as it is. Both are checked again against the clock and the calendar when
// the transfer is created: the request's format is validation's, the moment is this file's.

/** What a request asked for: a day in Buenos Aires, or a moment with its offset. */
export type ExecutionRequest = { executeOn: string } | { executeAt: string };

/** What to do with an `executeOn` that is not a business day. */
export const NON_BUSINESS_DAY_POLICIES = ['next', 'previous', 'refuse'] as const;
export type NonBusinessDayPolicy = (typeof NON_BUSINESS_DAY_POLICIES)[number];

export interface ScheduleRules {
  calendar: BankCalendar;
  nonBusinessDayPolicy: NonBusinessDayPolicy;
  /** The time of day (Buenos Aires) an `executeOn` is released at, in minutes after midnight. */
  releaseMinute: number;
  /** When the bank takes transfers (nothing is sent outside them); undefined: at any time. */
  operatingHours?: BankOperatingHours;
}

export const DEFAULT_SCHEDULE_RELEASE_TIME = '09:00';

/** The furthest ahead a transfer may be scheduled. */
export const MAX_SCHEDULE_AHEAD_DAYS = 400;

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
// ISO 8601 with its offset: a moment without one would be read in the machine's time zone.
const MOMENT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/;
const TIME_OF_DAY = /^([01]\d|2[0-3]):([0-5]\d)$/;
const DAY_MS = 24 * 60 * 60 * 1000;

/** An `executeOn` value's format problem: a real calendar day written `YYYY-MM-DD`. */
export function executeOnProblem(value: string): Problem | undefined {
  const match = DAY.exec(value);
  const valid =
    match !== null && new Date(Date.UTC(+match[1], +match[2] - 1, +match[3])).toISOString().startsWith(value);
  return valid ? undefined : { message: 'must be a day written YYYY-MM-DD', params: { format: 'YYYY-MM-DD' } };
}

/** An `executeAt` value's format problem: an ISO 8601 moment with its offset (`Z` or `±HH:MM`). */
export function executeAtProblem(value: string): Problem | undefined {
  return MOMENT.test(value) && Number.isFinite(Date.parse(value))
    ? undefined
    : {
        message: 'must be an ISO 8601 moment with its offset, like 2026-12-28T09:00:00-03:00',
        params: { format: 'ISO 8601 with offset' },
      };
}

/** `HH:MM` as minutes after midnight; a RangeError names the setting for anything else. */
export function releaseMinuteOf(time: string, setting = 'releaseTime'): number {
  const match = TIME_OF_DAY.exec(time);
  if (match === null) throw new RangeError(`${setting} must be a time of day HH:MM (00:00 to 23:59), got ${time}`);
  return Number(match[1]) * 60 + Number(match[2]);
}

export function scheduleRulesOf(options: {
  extraHolidays?: readonly string[];
  nonBusinessDayPolicy?: NonBusinessDayPolicy;
  releaseTime?: string;
  bankOperatingHours?: string;
}): ScheduleRules {
  for (const day of options.extraHolidays ?? []) {
    if (executeOnProblem(day) !== undefined) throw new RangeError(`extraHolidays: not a day YYYY-MM-DD: ${day}`);
  }
  const policy = options.nonBusinessDayPolicy ?? 'next';
  if (!NON_BUSINESS_DAY_POLICIES.includes(policy)) {
    throw new RangeError(`nonBusinessDayPolicy must be one of ${NON_BUSINESS_DAY_POLICIES.join(', ')}, got ${policy}`);
  }
  const calendar = new BankCalendar(options.extraHolidays);
  return {
    calendar,
    nonBusinessDayPolicy: policy,
    releaseMinute: releaseMinuteOf(options.releaseTime ?? DEFAULT_SCHEDULE_RELEASE_TIME),
    ...(options.bankOperatingHours !== undefined && {
      operatingHours: BankOperatingHours.parse(options.bankOperatingHours, calendar),
    }),
  };
}

/** When a request's transfer is released (epoch ms), or the violation that refuses its schedule now. */
export type ScheduleResolution = { ok: true; executeAtMs: number } | { ok: false; violation: Violation };

/**
 * The moment a transfer asked for `request` is released, judged at `nowMs`: an `executeOn` moved to a business
 * day by the policy and released at the release time; an `executeAt` as given. Refused: a day before today, a
 * non-business day under the policy `refuse`, a day of a year the calendar does not cover, and anything more than
 * MAX_SCHEDULE_AHEAD_DAYS ahead. A moment already past is not refused: the transfer is due, and goes at once.
 */
export function resolveExecution(request: ExecutionRequest, rules: ScheduleRules, nowMs: number): ScheduleResolution {
  const latestMs = nowMs + MAX_SCHEDULE_AHEAD_DAYS * DAY_MS;
  if ('executeAt' in request) {
    const atMs = Date.parse(request.executeAt);
    return atMs > latestMs ? refused('executeAt', horizon()) : { ok: true, executeAtMs: atMs };
  }
  const asked = request.executeOn;
  const today = businessDayOf(new Date(nowMs));
  if (asked < today) {
    return refused('executeOn', { rule: 'past', message: `must be today (${today}) or later`, params: { today } });
  }
  if (!rules.calendar.covers(asked)) {
    return refused('executeOn', {
      rule: 'calendar',
      message: `must be in a year whose bank holidays are known (${CALENDAR_YEARS.join(', ')})`,
      params: { years: CALENDAR_YEARS.map(String) },
    });
  }
  let day = asked;
  if (!rules.calendar.isBusinessDay(asked)) {
    const next = rules.calendar.businessDayFrom(asked, 'next');
    if (rules.nonBusinessDayPolicy === 'refuse') {
      return refused('executeOn', {
        rule: 'business_day',
        message: `must be a business day in Argentina; the next one is ${next}`,
        params: { next },
      });
    }
    day = rules.nonBusinessDayPolicy === 'next' ? next : rules.calendar.businessDayFrom(asked, 'previous');
  }
  const executeAtMs = businessDayBounds(day).start.getTime() + rules.releaseMinute * 60_000;
  return executeAtMs > latestMs ? refused('executeOn', horizon()) : { ok: true, executeAtMs };
}

function horizon() {
  return {
    rule: 'horizon',
    message: `must be at most ${MAX_SCHEDULE_AHEAD_DAYS} days ahead`,
    params: { maxDays: MAX_SCHEDULE_AHEAD_DAYS },
  };
}

function refused(field: string, problem: { rule: string; message: string; params: Violation['params'] }) {
  return { ok: false as const, violation: { field, ...problem } };
}
