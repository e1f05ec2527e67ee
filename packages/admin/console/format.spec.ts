import { buenosAiresDay, formatDay, formatSendingMoment, formatTotals } from './format';

const NBSP = '\u00a0';

describe('formatSendingMoment', () => {
  it("says the weekday, the day and the time on Buenos Aires' clock, in each language's order", () => {
    expect(formatSendingMoment('2026-12-28T12:00:00.000Z', 'es')).toBe('lun 28/12/2026 09:00');
    expect(formatSendingMoment('2026-12-28T12:00:00.000Z', 'en')).toBe('Mon 12/28/2026 09:00');
    // 01:30 UTC is still the evening before in Buenos Aires.
    expect(formatSendingMoment('2026-12-29T01:30:00.000Z', 'es')).toBe('lun 28/12/2026 22:30');
  });
});

describe('buenosAiresDay and formatDay', () => {
  it("takes a moment's Buenos Aires day, and writes a day as each language does", () => {
    expect(buenosAiresDay('2026-12-29T01:30:00.000Z')).toBe('2026-12-28');
    expect(buenosAiresDay('2026-12-29T03:00:00.000Z')).toBe('2026-12-29');
    expect(formatDay('2026-12-25', 'es')).toBe('25/12/2026');
    expect(formatDay('2026-12-25', 'en')).toBe('12/25/2026');
    expect(formatDay('mañana', 'es')).toBe('mañana');
  });
});

describe('formatTotals', () => {
  it('joins the totals of each currency', () => {
    expect(formatTotals([{ amount: '4000.50', currencyId: '032' }], 'es')).toBe(`$${NBSP}4.000,50`);
    expect(formatTotals([], 'es')).toBe('');
  });
});
