import { describeType } from './digits';

// The originId is the bank's idempotency key: the client's number for a request, processed at most once.
// It travels as a JSON number, so it must be an integer a double holds exactly: 1 … 2^53−1.
export const MAX_ORIGIN_ID = Number.MAX_SAFE_INTEGER;

/** Why `value` is not a valid originId, or undefined when it is. */
export function explainOriginId(value: unknown): string | undefined {
  if (typeof value !== 'number') return `must be a number, got ${describeType(value)}`;
  if (!Number.isFinite(value)) return `must be a finite number, got ${value}`;
  if (!Number.isInteger(value)) return `must be an integer, got ${value}`;
  if (value < 1) return `must be at least 1, got ${Object.is(value, -0) ? '-0' : value}`;
  if (value > MAX_ORIGIN_ID) return `must be at most ${MAX_ORIGIN_ID} (2^53−1), got ${value}`;
  return undefined;
}

export function isValidOriginId(value: unknown): value is number {
  return explainOriginId(value) === undefined;
}
