import { explainDigitString, weightedSum } from './digits';

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
  const shape = explainDigitString(value, CBU_CVU_LENGTH);
  if (shape !== undefined) return shape;

  const problems: string[] = [];
  const expected1 = checkDigit(value.slice(0, 7), BLOCK_1_WEIGHTS);
  if (Number(value[7]) !== expected1) {
    problems.push(`check digit of block 1 (position 8) is ${value[7]}, expected ${expected1}`);
  }
  const expected2 = checkDigit(value.slice(8, 21), BLOCK_2_WEIGHTS);
  if (Number(value[21]) !== expected2) {
    problems.push(`check digit of block 2 (position 22) is ${value[21]}, expected ${expected2}`);
  }
  return problems.length === 0 ? undefined : problems.join('; ');
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
  const problem = explainDigitString(first7, 7) ?? explainDigitString(next13, 13);
  if (problem !== undefined) {
    throw new RangeError(`completeCbuCvu: entity+branch must be 7 digits and account 13 digits (${problem})`);
  }
  return `${first7}${checkDigit(first7, BLOCK_1_WEIGHTS)}${next13}${checkDigit(next13, BLOCK_2_WEIGHTS)}`;
}
