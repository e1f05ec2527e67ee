import fc from 'fast-check';
import { parseBankTimestamp } from './bank-timestamp';

describe('parseBankTimestamp', () => {
  it.each([
    ['2024-05-02T13:45:10Z', '2024-05-02T13:45:10.000Z'],
    ['2024-02-29T00:00:00Z', '2024-02-29T00:00:00.000Z'],
    ['2024-05-02T13:45:10.123456Z', '2024-05-02T13:45:10.123Z'],
    ['2024-05-02T13:45:10.5Z', '2024-05-02T13:45:10.500Z'],
    ['2024-05-02T10:45:10-03:00', '2024-05-02T13:45:10.000Z'],
    ['2024-05-03T00:15:10+05:30', '2024-05-02T18:45:10.000Z'],
  ])('accepts %s as %s', (text, instant) => {
    expect(parseBankTimestamp(text)?.toISOString()).toBe(instant);
  });

  it.each([
    '2024-05-02T13:45:10', // no zone: whose local time?
    '2024-05-02 13:45:10Z',
    '2024-05-02',
    '2023-02-29T00:00:00Z',
    '2024-04-31T00:00:00Z',
    '2024-13-01T00:00:00Z',
    '2024-05-02T24:00:00Z',
    '2024-05-02T23:60:00Z',
    '2024-05-02T23:59:60Z',
    '2024-05-02T13:45:10+24:00',
    '2024-05-02T13:45:10.Z',
    '02/05/2024 13:45',
    '',
  ])('refuses %j', (text) => {
    expect(parseBankTimestamp(text)).toBeUndefined();
  });

  it('reads back every instant written in the format the bank uses', () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date('1970-01-01T00:00:00Z'), max: new Date('9999-12-31T23:59:59Z'), noInvalidDate: true }),
        (date) => {
          const spec = `${date.toISOString().slice(0, 19)}Z`;
          expect(parseBankTimestamp(spec)?.getTime()).toBe(Math.floor(date.getTime() / 1000) * 1000);
        },
      ),
    );
  });
});
