import { executeAtProblem, executeOnProblem, resolveExecution, scheduleRulesOf } from './execution-schedule';

const NOW = Date.UTC(2026, 11, 23, 15, 0, 0); // Wednesday 2026-12-23, 12:00 in Buenos Aires

describe('the execution of a scheduled transfer', () => {
  const rules = scheduleRulesOf({});

  it('releases a business day at the release time, Buenos Aires', () => {
    expect(resolveExecution({ executeOn: '2026-12-28' }, rules, NOW)).toEqual({
      ok: true,
      executeAtMs: Date.parse('2026-12-28T09:00:00-03:00'),
    });
    const early = scheduleRulesOf({ releaseTime: '06:15' });
    expect(resolveExecution({ executeOn: '2026-12-28' }, early, NOW)).toEqual({
      ok: true,
      executeAtMs: Date.parse('2026-12-28T06:15:00-03:00'),
    });
  });

  it('moves a holiday by the policy', () => {
    const christmas = { executeOn: '2026-12-25' };
    expect(resolveExecution(christmas, rules, NOW)).toMatchObject({ executeAtMs: Date.parse('2026-12-28T12:00:00Z') });
    const previous = scheduleRulesOf({ nonBusinessDayPolicy: 'previous' });
    expect(resolveExecution(christmas, previous, NOW)).toMatchObject({
      executeAtMs: Date.parse('2026-12-24T12:00:00Z'),
    });
    const refuse = scheduleRulesOf({ nonBusinessDayPolicy: 'refuse' });
    expect(resolveExecution(christmas, refuse, NOW)).toEqual({
      ok: false,
      violation: {
        field: 'executeOn',
        rule: 'business_day',
        params: { next: '2026-12-28' },
        message: expect.any(String),
      },
    });
  });

  it('takes today, refuses a past day, a year the calendar does not know and a day too far ahead', () => {
    expect(resolveExecution({ executeOn: '2026-12-23' }, rules, NOW)).toMatchObject({ ok: true });
    expect(resolveExecution({ executeOn: '2026-12-22' }, rules, NOW)).toMatchObject({
      violation: { rule: 'past', params: { today: '2026-12-23' } },
    });
    expect(resolveExecution({ executeOn: '2028-01-03' }, rules, NOW)).toMatchObject({
      violation: { rule: 'calendar', params: { years: ['2026', '2027'] } },
    });
    expect(resolveExecution({ executeAt: '2028-02-01T10:00:00Z' }, rules, NOW)).toMatchObject({
      violation: { field: 'executeAt', rule: 'horizon', params: { maxDays: 400 } },
    });
  });

  it('takes a moment as given, past or not', () => {
    expect(resolveExecution({ executeAt: '2026-12-23T11:59:59-03:00' }, rules, NOW)).toEqual({
      ok: true,
      executeAtMs: NOW - 1000,
    });
  });

  it('reads days and moments strictly', () => {
    expect(executeOnProblem('2026-12-28')).toBeUndefined();
    for (const day of ['2026-02-30', '2026-12-28T00:00', '28/12/2026', '2026-1-5']) {
      expect(executeOnProblem(day)).toEqual({ message: expect.any(String), params: { format: 'YYYY-MM-DD' } });
    }
    expect(executeAtProblem('2026-12-28T09:00:00-03:00')).toBeUndefined();
    expect(executeAtProblem('2026-12-28T12:00Z')).toBeUndefined();
    // Without an offset a moment would be read in the machine's time zone.
    for (const moment of ['2026-12-28T09:00:00', '2026-12-28', '2026-13-28T09:00:00Z', 'tomorrow']) {
      expect(executeAtProblem(moment)).toMatchObject({ params: { format: 'ISO 8601 with offset' } });
    }
  });

  it('refuses bad rules at start-up', () => {
    expect(() => scheduleRulesOf({ releaseTime: '9:00' })).toThrow('releaseTime must be a time of day HH:MM');
    expect(() => scheduleRulesOf({ extraHolidays: ['2026-12-32'] })).toThrow('extraHolidays');
    expect(() => scheduleRulesOf({ nonBusinessDayPolicy: 'later' as never })).toThrow('nonBusinessDayPolicy');
  });
});
