import { describeType } from './digits';
import type { Problem } from './violation';

// The originId is the bank's idempotency key: the client's number for a request, processed at most once.
// It travels as a JSON number, so it must be an integer a double holds exactly: 1 … 2^53−1.
export const MAX_ORIGIN_ID = Number.MAX_SAFE_INTEGER;

/** Why `value` is not a valid originId, or undefined when it is. */
export function explainOriginId(value: unknown): string | undefined {
  return originIdProblem(value)?.message;
}

/** The same, with its params: `reason` (`type`, `not_finite`, `not_integer`, `min`, `max`) and what was given. */
export function originIdProblem(value: unknown): Problem | undefined {
  if (typeof value !== 'number') {
    const type = describeType(value);
    return { message: `must be a number, got ${type}`, params: { reason: 'type', type } };
  }
  const given = Object.is(value, -0) ? '-0' : String(value);
  if (!Number.isFinite(value)) {
    return { message: `must be a finite number, got ${given}`, params: { reason: 'not_finite', value: given } };
  }
  if (!Number.isInteger(value)) {
    return { message: `must be an integer, got ${given}`, params: { reason: 'not_integer', value: given } };
  }
  if (value < 1)
    return { message: `must be at least 1, got ${given}`, params: { reason: 'min', min: 1, value: given } };
  if (value > MAX_ORIGIN_ID) {
    return {
      message: `must be at most ${MAX_ORIGIN_ID} (2^53−1), got ${given}`,
      params: { reason: 'max', max: MAX_ORIGIN_ID, value: given },
    };
  }
  return undefined;
}

export function isValidOriginId(value: unknown): value is number {
  return explainOriginId(value) === undefined;
}
