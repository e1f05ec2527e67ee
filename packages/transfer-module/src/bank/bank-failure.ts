import {
  BankAuthError,
  BankConflictError,
  BankError,
  type BankErrorDetails,
  BankMovementNotFoundError,
  BankNotSentError,
  type BankOperation,
  BankOutcomeUnknownError,
  BankRateLimitedError,
  BankRejectedError,
  copyCause,
} from './bank.errors';
import type { ExchangeFailure, ExchangeResponse } from './bank-exchange';
import { parseErrorBody } from './error-body';
import { parseRetryAfter } from './retry-after';

export interface FailureContext {
  operation: BankOperation;
  redact: (text: string) => string;
  /** Codes that mean "this originId was already processed", on a 409 or any other 4xx. */
  duplicateCodes: ReadonlySet<string>;
  /** get-movement: 4xx codes that mean "no such movement", besides HTTP 404. */
  notFoundCodes: ReadonlySet<string>;
  now: Date;
}

/** `CODE: message` of a low-level error. */
export function describeFailure(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? `${code}: ${error.message}` : error.message;
}

/** The error for a request that got no answer. */
export function errorFromFailure(failure: ExchangeFailure, context: FailureContext): BankError {
  const { reason } = failure;
  // The token provider failed before anything was sent; its refusal of our credentials stays an auth error.
  if (reason instanceof BankAuthError) return reason;
  // Not started: nothing was written (DNS, refused, connect timeout, TLS handshake, token or signing failed).
  // Started: the bank may have read it. That includes a server refusing our certificate under TLS 1.3,
  // which we only learn after writing — conservative, and a lookup resolves it.
  const cause = copyCause(reason, context.redact);
  const what = context.redact(describeFailure(reason));
  if (reason instanceof BankError || !failure.requestStarted) {
    return new BankNotSentError(`${context.operation} was not sent (${what})`, {
      operation: context.operation,
      cause,
    });
  }
  return new BankOutcomeUnknownError(`${context.operation} outcome unknown: the request was sent, then ${what}`, {
    operation: context.operation,
    cause,
  });
}

/** The error for a non-2xx answer. */
export function errorFromStatus(response: ExchangeResponse, context: FailureContext): BankError {
  const { status } = response;
  const body = parseErrorBody(response.body);
  const code = body.code === undefined ? undefined : context.redact(body.code);
  const bankMessage = body.message === undefined ? undefined : context.redact(body.message);
  const details: BankErrorDetails = { operation: context.operation, httpStatus: status };
  if (code !== undefined) details.bankCode = code;
  if (bankMessage !== undefined) details.bankMessage = bankMessage;
  const summary = `HTTP ${status}${code === undefined ? '' : `, code ${code}`}${bankMessage === undefined ? '' : `: ${bankMessage}`}`;
  const operation = context.operation;

  if (status === 401 || status === 403) {
    return new BankAuthError(`${operation} refused the credentials (${summary})`, details);
  }
  if (operation === 'get-movement' && status >= 400 && status < 500) {
    if (status === 404 || (code !== undefined && context.notFoundCodes.has(code))) {
      return new BankMovementNotFoundError(`get-movement found no such movement (${summary})`, details);
    }
  }
  if (status === 408) {
    return new BankOutcomeUnknownError(`${operation} outcome unknown: the bank timed out (${summary})`, details);
  }
  const isDuplicateCode = code !== undefined && context.duplicateCodes.has(code);
  // A configured duplicate code means "already processed" whatever the 4xx: a bank that answers a repeated
  // originId with 400 or 422 must never have it read as a rejection (that would cancel a transfer that went out).
  if (status === 409 || (isDuplicateCode && status >= 400 && status < 500)) {
    return new BankConflictError(`${operation} conflict (${summary})`, { ...details, isDuplicateCode });
  }
  if (status === 429) {
    const retryAfterMs = parseRetryAfter(response.headers['retry-after'], context.now);
    return new BankRateLimitedError(`${operation} rate-limited by the bank (${summary})`, {
      ...details,
      ...(retryAfterMs !== undefined && { retryAfterMs }),
    });
  }
  if (status >= 400 && status < 500) {
    return new BankRejectedError(`${operation} rejected by the bank (${summary})`, details);
  }
  // 5xx, and 1xx/3xx a POST should never get: the bank may or may not have acted on it.
  return new BankOutcomeUnknownError(`${operation} outcome unknown (${summary})`, details);
}
