import fc from 'fast-check';
import { CUIT_PREFIXES, completeCuit, explainCuit, isValidCuit } from './cuit';

const base10 = fc
  .tuple(fc.constantFrom(...CUIT_PREFIXES), fc.stringMatching(/^[0-9]{8}$/))
  .map(([prefix, number]) => `${prefix}${number}`);
const validCuit = base10.map(completeCuit).filter((cuit): cuit is string => cuit !== undefined);

// AFIP's own CUIT, a published number: 33-69345023-9.
const AFIP_CUIT = '33693450239';

describe('CUIT/CUIL', () => {
  it('accepts every generated number and refuses every single-digit change of it', () => {
    fc.assert(
      fc.property(validCuit, (cuit) => {
        expect(isValidCuit(cuit)).toBe(true);
        expect(explainCuit(cuit)).toBeUndefined();
        for (let i = 0; i < cuit.length; i++) {
          for (const digit of '0123456789') {
            if (digit === cuit[i]) continue;
            expect(isValidCuit(cuit.slice(0, i) + digit + cuit.slice(i + 1))).toBe(false);
          }
        }
      }),
      { numRuns: 300 },
    );
  });

  it('never maps a check value of 10 to a digit: no 11th digit makes such a base valid', () => {
    fc.assert(
      fc.property(
        base10.filter((base) => completeCuit(base) === undefined),
        (base) => {
          for (const digit of '0123456789') {
            expect(explainCuit(base + digit)).toBe(
              'the first 10 digits give check value 10, which no valid CUIT/CUIL has',
            );
          }
        },
      ),
      { numRuns: 50 },
    );
  });

  it('accepts a published CUIT and a check value of 11 as 0', () => {
    expect(isValidCuit(AFIP_CUIT)).toBe(true);
    // 20-00000001: weighted sum 2·5 + 1·2 = 12, 12 mod 11 = 1, r = 10 → no number; 20-00000012: sum 10 + 3 + 4 = 17, mod 11 = 6, r = 5.
    expect(completeCuit('2000000001')).toBeUndefined();
    expect(completeCuit('2000000012')).toBe('20000000125');
    // 20-00000005: sum 10 + 10 = 20, 20 mod 11 = 9, r = 2; 23-00000000: sum 10 + 12 = 22, mod 11 = 0, r = 11 → 0.
    expect(completeCuit('2000000005')).toBe('20000000052');
    expect(completeCuit('2300000000')).toBe('23000000000');
  });

  it.each([
    ['a number', 33693450239, 'must be a string of 11 digits, got number'],
    ['a short string', '3369345023', 'must be 11 digits, got 10'],
    ['hyphens', '33-69345023-9', 'must contain only digits, found "-" at position 3'],
    ['an unknown prefix', '21693450239', 'prefix 21 is not a CUIT/CUIL type (allowed: 20, 23, 24, 27, 30, 33, 34)'],
    ['a wrong check digit', '33693450238', 'check digit (position 11) is 8, expected 9'],
    [
      'a base with check value 10',
      '20100000059',
      'the first 10 digits give check value 10, which no valid CUIT/CUIL has',
    ],
  ])('explains %s', (_case, value, message) => {
    expect(explainCuit(value as string)).toBe(message);
    expect(isValidCuit(value as string)).toBe(false);
  });

  it('refuses to complete a malformed base', () => {
    expect(() => completeCuit('20123')).toThrow('must be 10 digits, got 5');
  });
});
