import { STATUS_CODES } from 'node:http';
import type { Violation } from '@giro/transfer-module';

/**
 * The one body of every error answer: `statusCode`, `error` (the status's name), `message`, and `violations`
 * when fields are at fault (`field` '' is the request body as a whole) — as the admin API's 400s have always been.
 */
export interface ErrorBody {
  statusCode: number;
  error: string;
  message: string;
  violations?: Violation[];
  [extra: string]: unknown;
}

export function errorBody(statusCode: number, message: string, violations?: readonly Violation[]): ErrorBody {
  return {
    statusCode,
    error: STATUS_CODES[statusCode] ?? 'Error',
    message,
    ...(violations !== undefined && { violations: [...violations] }),
  };
}

/** An error body whose message repeats the violations in one line, for people reading logs. */
export function violationsBody(statusCode: number, violations: readonly Violation[]): ErrorBody {
  const message = violations
    .map((violation) => `${violation.field === '' ? '(request)' : violation.field} ${violation.message}`)
    .join('; ');
  return errorBody(statusCode, message, violations);
}
