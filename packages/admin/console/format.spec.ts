import { typedDay } from './days';
import { buenosAiresDay, formatSendingMoment, formatTime, formatTotals } from './format';

const NBSP = '\u00a0';

describe('formatSendingMoment', () => {
  it("says the weekday in the language, then the day (day first in both) and the time on Buenos Aires' clock", () => {
    expect(formatSendingMoment('2026-12-28T12:00:00.000Z', 'es')).toBe('lun 28/12/2026 09:00');
    expect(formatSendingMoment('2026-12-28T12:00:00.000Z', 'en')).toBe('Mon 28/12/2026 09:00');
    // 01:30 UTC is still the evening before in Buenos Aires.
    expect(formatSendingMoment('2026-12-29T01:30:00.000Z', 'es')).toBe('lun 28/12/2026 22:30');
  });
});

describe('formatTime', () => {
  it("writes a moment day first in both languages, on Buenos Aires' clock", () => {
    expect(formatTime('2026-11-24T14:35:07.000Z', 'es')).toBe('24/11/2026 11:35:07');
    expect(formatTime('2026-11-24T14:35:07.000Z', 'en')).toBe('24/11/2026 11:35:07');
    expect(formatTime(null, 'en')).toBe('');
  });
});

describe('buenosAiresDay and typedDay', () => {
  it("takes a moment's Buenos Aires day, and writes a day day first, as its fields are typed", () => {
    expect(buenosAiresDay('2026-12-29T01:30:00.000Z')).toBe('2026-12-28');
    expect(buenosAiresDay('2026-12-29T03:00:00.000Z')).toBe('2026-12-29');
    expect(typedDay('2026-12-25')).toBe('25/12/2026');
    expect(typedDay('mañana')).toBe('mañana');
  });
});

describe('formatTotals', () => {
  it('joins the totals of each currency', () => {
    expect(formatTotals([{ amount: '4000.50', currencyId: '032' }], 'es')).toBe(`$${NBSP}4.000,50`);
    expect(formatTotals([], 'es')).toBe('');
  });
});
