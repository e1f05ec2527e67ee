import fc from 'fast-check';
import {
  amountFromCents,
  amountFromWire,
  amountToCents,
  amountToWire,
  DEFAULT_MAX_AMOUNT,
  type DecimalAmount,
  isDecimalAmount,
  MAX_WIRE_AMOUNT,
  parseAmount,
} from './money';

const DEFAULT_MAX_CENTS = 99_999_999_999_999n;
const WIRE_MAX_CENTS = 999_999_999_999_999n;
// Small amounts and the largest ones are where rounding would show first.
const cents = (max: bigint) =>
  fc.oneof(fc.bigInt({ min: 1n, max: 10_000n }), fc.bigInt({ min: 1n, max }), fc.bigInt({ min: max - 10_000n, max }));

function parsed(input: unknown, rules?: { max?: string }): DecimalAmount {
  const result = parseAmount(input, rules);
  if (!result.ok) throw new Error(`expected ${String(input)} to parse, got: ${result.reason}`);
  return result.value;
}

describe('money', () => {
  describe('round trips', () => {
    it('parse → wire → JSON → parse is exact for every cent value up to the default maximum', () => {
      fc.assert(
        fc.property(cents(DEFAULT_MAX_CENTS), (value) => {
          const amount = amountFromCents(value);
          const overTheWire = JSON.parse(JSON.stringify({ amount: amountToWire(parsed(amount)) })).amount;
          expect(parsed(overTheWire)).toBe(amount);
          expect(amountFromWire(overTheWire)).toBe(amount);
          expect(amountToCents(parsed(overTheWire))).toBe(value);
        }),
        { numRuns: 2000 },
      );
    });

    it('stays exact up to the largest maximum a rule may set', () => {
      fc.assert(
        fc.property(cents(WIRE_MAX_CENTS), (value) => {
          const amount = amountFromCents(value);
          expect(parsed(amountToWire(amount), { max: MAX_WIRE_AMOUNT })).toBe(amount);
        }),
        { numRuns: 2000 },
      );
    });

    it('canonical strings round trip through parsing, cents and the wire', () => {
      fc.assert(
        fc.property(cents(DEFAULT_MAX_CENTS), (value) => {
          const amount = amountFromCents(value);
          expect(isDecimalAmount(amount)).toBe(true);
          expect(amount).toMatch(/^(0|[1-9][0-9]*)\.[0-9]{2}$/);
          expect(parsed(amount)).toBe(amount);
          expect(amountFromCents(amountToCents(amount))).toBe(amount);
          expect(amountFromWire(amountToWire(amount))).toBe(amount);
        }),
      );
    });

    it('accepts a JSON number only when the amount it means is exactly that number', () => {
      fc.assert(
        // Arbitrary doubles, and doubles near cent values (often just off them).
        fc.property(
          fc.oneof(
            fc.double(),
            cents(DEFAULT_MAX_CENTS).map((c) => Number(c) / 100),
          ),
          (value) => {
            const result = parseAmount(value);
            if (result.ok) expect(amountToWire(result.value)).toBe(value);
          },
        ),
        { numRuns: 2000 },
      );
    });
  });

  it.each([
    [1, '1.00'],
    [1.5, '1.50'],
    [0.01, '0.01'],
    [1234.56, '1234.56'],
    ['1', '1.00'],
    ['1.5', '1.50'],
    ['0.01', '0.01'],
    ['999999999999.99', '999999999999.99'],
    [999999999999.99, '999999999999.99'],
  ])('reads %p as %p', (input, expected) => {
    expect(parsed(input)).toBe(expected);
  });

  it.each([
    ['NaN', Number.NaN, 'must be a finite number, got NaN'],
    ['Infinity', Number.POSITIVE_INFINITY, 'must be a finite number, got Infinity'],
    ['-Infinity', Number.NEGATIVE_INFINITY, 'must be a finite number, got -Infinity'],
    ['1e309 from JSON', JSON.parse('1e309'), 'must be a finite number, got Infinity'],
    ['-0', -0, 'must be greater than 0, got -0'],
    ['0', 0, 'must be greater than 0, got 0'],
    ['a negative number', -5, 'must be greater than 0, got -5'],
    ['"0"', '0', 'must be greater than 0, got "0"'],
    ['"0.00"', '0.00', 'must be greater than 0, got "0.00"'],
    ['a negative string', '-5', 'must be greater than 0, got "-5"'],
    ['exponent notation in a string', '1e3', 'must not use exponent notation, got "1e3"'],
    ['upper-case exponent in a string', '1E3', 'must not use exponent notation, got "1E3"'],
    ['3 decimals in a string', '1.234', 'has 3 decimals, at most 2 allowed, got "1.234"'],
    ['3 decimals in a number', 1.234, 'has 3 decimals, at most 2 allowed, got 1.234'],
    ['a float sum', 0.1 + 0.2, 'has 17 decimals, at most 2 allowed, got 0.30000000000000004'],
    ['a tiny number in exponent form', 1e-7, 'has more than 2 decimals, got 1e-7'],
    ['leading whitespace', ' 1', 'must not contain whitespace, got " 1"'],
    ['trailing newline', '1\n', 'must not contain whitespace, got "1\\n"'],
    ['the empty string', '', 'must not be empty'],
    [
      'a plus sign',
      '+5',
      'must be a plain decimal like "1234.50" (digits, then optionally "." and 1 or 2 digits), got "+5"',
    ],
    [
      'a comma',
      '1,50',
      'must be a plain decimal like "1234.50" (digits, then optionally "." and 1 or 2 digits), got "1,50"',
    ],
    [
      'a leading zero',
      '01.50',
      'must be a plain decimal like "1234.50" (digits, then optionally "." and 1 or 2 digits), got "01.50"',
    ],
    [
      'a bare point',
      '5.',
      'must be a plain decimal like "1234.50" (digits, then optionally "." and 1 or 2 digits), got "5."',
    ],
    ['a boolean', true, 'must be a JSON number or a decimal string, got boolean'],
    ['null', null, 'must be a JSON number or a decimal string, got null'],
    ['undefined', undefined, 'must be a JSON number or a decimal string, got undefined'],
    ['an object', { amount: 1 }, 'must be a JSON number or a decimal string, got object'],
    ['an array', [1], 'must be a JSON number or a decimal string, got array'],
    ['a bigint', 100n, 'must be a JSON number or a decimal string, got bigint'],
  ])('refuses %s', (_case, input, reason) => {
    expect(parseAmount(input)).toMatchObject({ ok: false, rule: 'amount', reason });
  });

  it.each([
    ['a string one cent above', '1000000000000.00', 'must be at most 999999999999.99, got "1000000000000.00"'],
    ['a number one cent above', 1000000000000, 'must be at most 999999999999.99, got 1000000000000'],
    ['a huge number in exponent form', 1e21, 'must be at most 999999999999.99, got 1e+21'],
    ['a very long string', '9'.repeat(60), `must be at most 999999999999.99, got "${'9'.repeat(40)}…"`],
    // Past 15 significant digits a JSON number may already be rounded; past the maximum too, which is what is said.
    [
      'a number past 15 significant digits',
      123456789012345.6,
      'must be at most 999999999999.99, got 123456789012345.6',
    ],
    [
      'an 18-digit integer',
      JSON.parse('123456789012345678'),
      'must be at most 999999999999.99, got 123456789012345680',
    ],
    [
      'an integer past 2^53 read from JSON',
      JSON.parse('12345678901234567890'),
      'must be at most 999999999999.99, got 12345678901234567000',
    ],
  ])('refuses %s with the max rule', (_case, input, reason) => {
    expect(parseAmount(input)).toMatchObject({ ok: false, rule: 'max', reason });
  });

  it('uses a configured maximum, inclusive', () => {
    expect(parsed('500.00', { max: '500' })).toBe('500.00');
    expect(parseAmount(500.01, { max: '500' })).toMatchObject({
      ok: false,
      rule: 'max',
      reason: 'must be at most 500.00, got 500.01',
      params: { max: '500.00', value: '500.01' },
    });
    expect(DEFAULT_MAX_AMOUNT).toBe('999999999999.99');
  });

  it('gives the values each refusal is built from, for a client to say it in its own language', () => {
    expect(parseAmount('1.001')).toMatchObject({ params: { reason: 'decimals', decimals: 3, value: '1.001' } });
    expect(parseAmount('')).toMatchObject({ params: { reason: 'empty' } });
    expect(parseAmount(null)).toMatchObject({ params: { reason: 'type', type: 'null' } });
    expect(parseAmount('0')).toMatchObject({ params: { reason: 'not_positive', value: '0' } });
    expect(parseAmount('2000000', { max: '1000000' })).toMatchObject({
      rule: 'max',
      params: { max: '1000000.00', value: '2000000' },
    });
  });

  it.each([['0'], ['-1'], ['1.001'], ['abc'], ['10000000000000.00']])('refuses %p as a configured maximum', (max) => {
    expect(() => parseAmount('1', { max })).toThrow(
      `amount rule "max" must be a decimal string from 0.01 to 9999999999999.99, got "${max}"`,
    );
  });

  describe('amountFromWire (the bank’s answers)', () => {
    it.each([
      [0, '0.00'],
      [-0, '0.00'],
      [10.5, '10.50'],
      ['10.5', '10.50'],
      [1234.56, '1234.56'],
    ])('reads %p as %p', (input, expected) => {
      expect(amountFromWire(input)).toBe(expected);
    });

    it.each([
      [-1],
      ['-1'],
      [Number.NaN],
      [Number.POSITIVE_INFINITY],
      [1e-7],
      [1.234],
      ['1.234'],
      ['1e3'],
      [1e21],
      [123456789012345.6],
      [null],
      [{}],
      [''],
    ])('gives undefined for %p', (input) => {
      expect(amountFromWire(input)).toBeUndefined();
    });
  });

  describe('cents', () => {
    it('converts both ways', () => {
      expect(amountToCents('1234.50' as DecimalAmount)).toBe(123450n);
      expect(amountFromCents(5n)).toBe('0.05');
      expect(amountFromCents(0n)).toBe('0.00');
      expect(amountFromCents(123450n)).toBe('1234.50');
    });

    it('refuses negative cents and non-canonical strings passed off as amounts', () => {
      expect(() => amountFromCents(-1n)).toThrow('cents must be a bigint ≥ 0, got -1');
      expect(() => amountToCents('1.5' as DecimalAmount)).toThrow('not a canonical DecimalAmount: "1.5"');
      expect(() => amountToWire('1e3' as DecimalAmount)).toThrow('not a canonical DecimalAmount: "1e3"');
    });

    it('recognises canonical amounts only', () => {
      expect(isDecimalAmount('0.00')).toBe(true);
      expect(isDecimalAmount('12.30')).toBe(true);
      for (const value of ['12.3', '012.30', '-1.00', '1.000', 12.3, '']) {
        expect(isDecimalAmount(value)).toBe(false);
      }
    });
  });
});
