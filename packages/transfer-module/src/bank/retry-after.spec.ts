import { parseRetryAfter } from './retry-after';

const now = new Date('2024-05-02T12:00:00Z');

describe('parseRetryAfter', () => {
  it.each<[string | string[] | undefined, number | undefined]>([
    ['120', 120_000],
    ['0', 0],
    [' 5 ', 5_000],
    ['Thu, 02 May 2024 12:00:30 GMT', 30_000],
    ['Thu, 02 May 2024 11:59:00 GMT', 0],
    [['3', '9'], 3_000],
    ['-5', undefined],
    ['1.5', undefined],
    ['soon', undefined],
    ['', undefined],
    [undefined, undefined],
  ])('%j → %j ms', (header, expected) => {
    expect(parseRetryAfter(header, now)).toBe(expected);
  });
});
