import { formatDuration, parseDuration, parseDurationList } from './durations';

describe('durations in variables', () => {
  it('reads a whole number with a unit, or a bare number of milliseconds', () => {
    expect(parseDuration('250ms')).toBe(250);
    expect(parseDuration('5s')).toBe(5_000);
    expect(parseDuration('2m')).toBe(120_000);
    expect(parseDuration('3h')).toBe(10_800_000);
    expect(parseDuration('1d')).toBe(86_400_000);
    expect(parseDuration(' 1500 ')).toBe(1_500);
  });

  it('refuses anything else', () => {
    for (const text of ['', 's', '1.5s', '-5s', '5 s', '5S', '5w', '1e3', '5s5'])
      expect(parseDuration(text)).toBeUndefined();
  });

  it('reads a comma-separated list, or names the first item that is not a duration', () => {
    expect(parseDurationList('5s, 30s,2m')).toEqual({ ok: true, ms: [5_000, 30_000, 120_000] });
    expect(parseDurationList('5s,,2m')).toEqual({ ok: false, item: 2 });
    expect(parseDurationList('5s,30s,soon')).toEqual({ ok: false, item: 3 });
  });

  it('writes milliseconds in the largest unit they are a whole number of, as they are read back', () => {
    for (const [ms, text] of [
      [250, '250ms'],
      [5_000, '5s'],
      [90_000, '90s'],
      [7_200_000, '2h'],
      [86_400_000, '1d'],
    ] as const) {
      expect(formatDuration(ms)).toBe(text);
      expect(parseDuration(text)).toBe(ms);
    }
  });
});
