import fc from 'fast-check';
import { completeCbuCvu, explainCbuCvu, isCvu, isValidCbuCvu } from './cbu-cvu';

const digits = (length: number) => fc.stringMatching(new RegExp(`^[0-9]{${length}}$`));
const validCbuCvu = fc.tuple(digits(7), digits(13)).map(([first7, next13]) => completeCbuCvu(first7, next13));

/** Every string that differs from `value` in exactly one digit. */
function singleDigitChanges(value: string): string[] {
  const changes: string[] = [];
  for (let i = 0; i < value.length; i++) {
    for (const digit of '0123456789') {
      if (digit !== value[i]) changes.push(value.slice(0, i) + digit + value.slice(i + 1));
    }
  }
  return changes;
}

// A published account number (Banco Macro's example CBU), checked by hand against the weights.
const MACRO_CBU = '2850590940090418135201';

describe('CBU/CVU', () => {
  it('accepts every generated number and refuses every single-digit change of it', () => {
    fc.assert(
      fc.property(validCbuCvu, (cbu) => {
        expect(isValidCbuCvu(cbu)).toBe(true);
        expect(explainCbuCvu(cbu)).toBeUndefined();
        for (const changed of singleDigitChanges(cbu)) {
          expect(isValidCbuCvu(changed)).toBe(false);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('calls a valid number a CVU exactly when its entity code is 000', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          validCbuCvu,
          digits(4).map((rest) => completeCbuCvu(`000${rest}`, '0000000000123')),
        ),
        (value) => {
          expect(isCvu(value)).toBe(value.startsWith('000'));
        },
      ),
    );
  });

  it('accepts a published CBU and rejects a CVU-looking string with a wrong check digit', () => {
    expect(isValidCbuCvu(MACRO_CBU)).toBe(true);
    expect(isCvu(MACRO_CBU)).toBe(false);
    expect(isCvu('0000003100000000000001')).toBe(false);
  });

  it.each([
    ['a number', Number(MACRO_CBU), 'must be a string of 22 digits, got number'],
    ['a short string', MACRO_CBU.slice(1), 'must be 22 digits, got 21'],
    ['a long string', `${MACRO_CBU}0`, 'must be 22 digits, got 23'],
    ['the empty string', '', 'must be 22 digits, got 0'],
    ['a separator', '28505909-40090418135201', 'must contain only digits, found "-" at position 9'],
    ['a space', ` ${MACRO_CBU}`, 'must contain only digits, found " " at position 1'],
    ['a bad block 1 check', '2850590340090418135201', 'check digit of block 1 (position 8) is 3, expected 9'],
    ['a bad block 2 check', '2850590940090418135209', 'check digit of block 2 (position 22) is 9, expected 1'],
    [
      'both checks bad',
      '2850590040090418135200',
      'check digit of block 1 (position 8) is 0, expected 9; check digit of block 2 (position 22) is 0, expected 1',
    ],
  ])('explains %s', (_case, value, message) => {
    expect(explainCbuCvu(value as string)).toBe(message);
    expect(isValidCbuCvu(value as string)).toBe(false);
  });

  it('completes the published CBU from its 7 + 13 digits', () => {
    expect(completeCbuCvu('2850590', '4009041813520')).toBe(MACRO_CBU);
  });

  it('refuses to complete malformed parts', () => {
    expect(() => completeCbuCvu('285059', '4009041813520')).toThrow('must be 7 digits, got 6');
    expect(() => completeCbuCvu('2850590', '400904181352x')).toThrow('found "x" at position 13');
  });
});
