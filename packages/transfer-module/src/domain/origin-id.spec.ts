import fc from 'fast-check';
import { explainOriginId, isValidOriginId, MAX_ORIGIN_ID } from './origin-id';

describe('originId', () => {
  it('accepts every integer from 1 to 2^53−1', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }), (value) => {
        expect(isValidOriginId(value)).toBe(true);
      }),
    );
    expect(isValidOriginId(1)).toBe(true);
    expect(isValidOriginId(MAX_ORIGIN_ID)).toBe(true);
  });

  it('refuses every number that is not an integer', () => {
    fc.assert(
      fc.property(
        fc.double().filter((value) => !Number.isInteger(value)),
        (value) => {
          expect(isValidOriginId(value)).toBe(false);
        },
      ),
    );
  });

  it.each([
    ['a numeric string', '42', 'must be a number, got string'],
    ['a bigint', 42n, 'must be a number, got bigint'],
    ['null', null, 'must be a number, got null'],
    ['NaN', Number.NaN, 'must be a finite number, got NaN'],
    ['Infinity', Number.POSITIVE_INFINITY, 'must be a finite number, got Infinity'],
    ['a fraction', 1.5, 'must be an integer, got 1.5'],
    ['zero', 0, 'must be at least 1, got 0'],
    ['minus zero', -0, 'must be at least 1, got -0'],
    ['a negative', -7, 'must be at least 1, got -7'],
    ['2^53', 2 ** 53, 'must be at most 9007199254740991 (2^53−1), got 9007199254740992'],
  ])('explains %s', (_case, value, message) => {
    expect(explainOriginId(value)).toBe(message);
    expect(isValidOriginId(value)).toBe(false);
  });
});
