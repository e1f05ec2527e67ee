import type { Problem } from './violation';

// Helpers shared by the check-digit identifiers (CBU/CVU, CUIT/CUIL). Not exported from the barrel.

const ONLY_DIGITS = /^[0-9]*$/;

/** Says why `value` is not exactly `length` ASCII digits, or undefined when it is. */
export function digitStringProblem(value: unknown, length: number): Problem | undefined {
  if (typeof value !== 'string') {
    const type = describeType(value);
    return { message: `must be a string of ${length} digits, got ${type}`, params: { reason: 'type', length, type } };
  }
  if (!ONLY_DIGITS.test(value)) {
    const index = [...value].findIndex((char) => char < '0' || char > '9');
    const character = [...value][index];
    return {
      message: `must contain only digits, found ${JSON.stringify(character)} at position ${index + 1}`,
      params: { reason: 'characters', character, position: index + 1 },
    };
  }
  if (value.length !== length) {
    return {
      message: `must be ${length} digits, got ${value.length}`,
      params: { reason: 'length', expected: length, actual: value.length },
    };
  }
  return undefined;
}

/** Sum of digit × weight over `digits` (a string of ASCII digits as long as `weights`). */
export function weightedSum(digits: string, weights: readonly number[]): number {
  let sum = 0;
  for (let i = 0; i < weights.length; i++) {
    sum += Number(digits[i]) * weights[i];
  }
  return sum;
}

/** `null`, `array` or the `typeof` name: what a message should call an unexpected value. */
export function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}
