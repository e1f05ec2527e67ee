import { digitStringProblem, weightedSum } from './digits';
import type { Problem } from './violation';

// A CBU (bank account) or CVU (virtual account) is 22 digits in two blocks, each closed by a check digit:
// block 1 = entity (3) + branch (4) + check, block 2 = account (13) + check. A CVU has the same form and
// its entity code is 000. Kept as strings: leading zeros are significant.
const BLOCK_1_WEIGHTS = [7, 1, 3, 9, 7, 1, 3] as const;
const BLOCK_2_WEIGHTS = [3, 9, 7, 1, 3, 9, 7, 1, 3, 9, 7, 1, 3] as const;
const CBU_CVU_LENGTH = 22;
const CVU_ENTITY = '000';

function checkDigit(digits: string, weights: readonly number[]): number {
  return (10 - (weightedSum(digits, weights) % 10)) % 10;
}

/** Why `value` is not a valid CBU/CVU, or undefined when it is. */
export function explainCbuCvu(value: string): string | undefined {
  return cbuCvuProblem(value)?.message;
}

/**
 * Why `value` is not a valid CBU/CVU, with its params: the digits' shape (`reason` `type`, `characters`,
 * `length`), or a wrong check digit (`check_digit`: `block`, `position`, `expected`, `actual`; `check_digits`
 * when both are wrong: `expected1`, `actual1`, `expected2`, `actual2`).
 */
export function cbuCvuProblem(value: string): Problem | undefined {
  const shape = digitStringProblem(value, CBU_CVU_LENGTH);
  if (shape !== undefined) return shape;

  const expected1 = checkDigit(value.slice(0, 7), BLOCK_1_WEIGHTS);
  const expected2 = checkDigit(value.slice(8, 21), BLOCK_2_WEIGHTS);
  const actual1 = Number(value[7]);
  const actual2 = Number(value[21]);
  const block1 = `check digit of block 1 (position 8) is ${actual1}, expected ${expected1}`;
  const block2 = `check digit of block 2 (position 22) is ${actual2}, expected ${expected2}`;
  if (actual1 !== expected1 && actual2 !== expected2) {
    return {
      message: `${block1}; ${block2}`,
      params: { reason: 'check_digits', expected1, actual1, expected2, actual2 },
    };
  }
  if (actual1 !== expected1) {
    return {
      message: block1,
      params: { reason: 'check_digit', block: 1, position: 8, expected: expected1, actual: actual1 },
    };
  }
  if (actual2 !== expected2) {
    return {
      message: block2,
      params: { reason: 'check_digit', block: 2, position: 22, expected: expected2, actual: actual2 },
    };
  }
  return undefined;
}

export function isValidCbuCvu(value: string): boolean {
  return explainCbuCvu(value) === undefined;
}

/** True for a valid CVU (a valid CBU/CVU whose entity code is 000). */
export function isCvu(value: string): boolean {
  return isValidCbuCvu(value) && value.startsWith(CVU_ENTITY);
}

/**
 * Builds a valid CBU/CVU from entity + branch (7 digits) and account (13 digits) by appending both
 * check digits. For generators and the sandbox bank.
 */
export function completeCbuCvu(first7: string, next13: string): string {
  const problem = digitStringProblem(first7, 7) ?? digitStringProblem(next13, 13);
  if (problem !== undefined) {
    throw new RangeError(`completeCbuCvu: entity+branch must be 7 digits and account 13 digits (${problem.message})`);
  }
  return `${first7}${checkDigit(first7, BLOCK_1_WEIGHTS)}${next13}${checkDigit(next13, BLOCK_2_WEIGHTS)}`;
}
