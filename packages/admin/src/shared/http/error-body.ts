import { STATUS_CODES } from 'node:http';
import type { ErrorCode, Violation } from '@giro/transfer-module';

/**
 * The body of every error answer of the admin API (and of the reconciler's server around it):
 * `{ statusCode, code, message, violations? }` — `code` from docs/errors.md, stable; `message` in English, for
 * people reading logs; `violations` when fields are at fault (`field` '' is the request as a whole), each with its
 * `rule` and `params`. `error` (the status's name, as Nest's own answers have it) and an error's own fields
 * (`errorName`, `originId`…) come along.
 */
export interface ErrorBody {
  statusCode: number;
  code: ErrorCode;
  error: string;
  message: string;
  violations?: Violation[];
  [extra: string]: unknown;
}

export function errorBody(
  statusCode: number,
  code: ErrorCode,
  message: string,
  extra: Record<string, unknown> = {},
): ErrorBody {
  return { statusCode, code, error: STATUS_CODES[statusCode] ?? 'Error', message, ...extra };
}

/**
 * An error body whose message repeats the violations in one line. An unknown field is answered "is not a known
 * field", as the admin API always has: the fields it accepts are in its OpenAPI document (the domain's message
 * lists them too, for callers of TransferService that have none; so do the violation's params).
 */
export function violationsBody(
  statusCode: number,
  code: ErrorCode,
  violations: readonly Violation[],
  extra: Record<string, unknown> = {},
): ErrorBody {
  const answered = violations.map((violation) =>
    violation.rule === 'unknown_field' ? { ...violation, message: 'is not a known field' } : violation,
  );
  const message = answered
    .map((violation) => `${violation.field === '' ? '(request)' : violation.field} ${violation.message}`)
    .join('; ');
  return errorBody(statusCode, code, message, { ...extra, violations: answered });
}
