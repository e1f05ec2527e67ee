import { digitStringProblem, weightedSum } from './digits';
import type { Problem } from './violation';

// CUIT (tax id) / CUIL (labour id): 2-digit type prefix + 8-digit number + check digit, 11 digits, no hyphens.
const WEIGHTS = [5, 4, 3, 2, 7, 6, 5, 4, 3, 2] as const;
const CUIT_LENGTH = 11;
export const CUIT_PREFIXES = ['20', '23', '24', '27', '30', '33', '34'] as const;

/**
 * The check digit for the first 10 digits, or undefined when the modulus-11 rule yields 10: no valid
 * CUIT/CUIL has such a base (the issuer changes the prefix instead), so 10 is never mapped to 9.
 */
function checkDigit(first10: string): number | undefined {
  const r = 11 - (weightedSum(first10, WEIGHTS) % 11);
  if (r === 11) return 0;
  if (r === 10) return undefined;
  return r;
}

/** Why `value` is not a valid CUIT/CUIL, or undefined when it is. */
export function explainCuit(value: string): string | undefined {
  return cuitProblem(value)?.message;
}

/**
 * Why `value` is not a valid CUIT/CUIL, with its params: the digits' shape (`reason` `type`, `characters`,
 * `length`), a `prefix` not allowed (`prefix`, `allowed`), a base without a check digit (`check_value`), or a
 * wrong check digit (`check_digit`: `position`, `expected`, `actual`).
 */
export function cuitProblem(value: string): Problem | undefined {
  const shape = digitStringProblem(value, CUIT_LENGTH);
  if (shape !== undefined) return shape;

  const prefix = value.slice(0, 2);
  if (!(CUIT_PREFIXES as readonly string[]).includes(prefix)) {
    return {
      message: `prefix ${prefix} is not a CUIT/CUIL type (allowed: ${CUIT_PREFIXES.join(', ')})`,
      params: { reason: 'prefix', prefix, allowed: CUIT_PREFIXES },
    };
  }
  const expected = checkDigit(value.slice(0, 10));
  if (expected === undefined) {
    return {
      message: 'the first 10 digits give check value 10, which no valid CUIT/CUIL has',
      params: { reason: 'check_value' },
    };
  }
  const actual = Number(value[10]);
  if (actual !== expected) {
    return {
      message: `check digit (position 11) is ${actual}, expected ${expected}`,
      params: { reason: 'check_digit', position: 11, expected, actual },
    };
  }
  return undefined;
}

export function isValidCuit(value: string): boolean {
  return explainCuit(value) === undefined;
}

/**
 * Appends the check digit to the first 10 digits; undefined when the check would be 10 (no valid number
 * exists for that base). The prefix is not checked here. For generators and the sandbox bank.
 */
export function completeCuit(first10: string): string | undefined {
  const problem = digitStringProblem(first10, 10);
  if (problem !== undefined) {
    throw new RangeError(`completeCuit: the first 10 digits ${problem.message}`);
  }
  const check = checkDigit(first10);
  return check === undefined ? undefined : `${first10}${check}`;
}
