// Helpers shared by the check-digit identifiers (CBU/CVU, CUIT/CUIL). Not exported from the barrel.

const ONLY_DIGITS = /^[0-9]*$/;

/** Says why `value` is not exactly `length` ASCII digits, or undefined when it is. */
export function explainDigitString(value: unknown, length: number): string | undefined {
  if (typeof value !== 'string') {
    return `must be a string of ${length} digits, got ${describeType(value)}`;
  }
  if (!ONLY_DIGITS.test(value)) {
    const index = [...value].findIndex((char) => char < '0' || char > '9');
    const char = [...value][index];
    return `must contain only digits, found ${JSON.stringify(char)} at position ${index + 1}`;
  }
  if (value.length !== length) {
    return `must be ${length} digits, got ${value.length}`;
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
