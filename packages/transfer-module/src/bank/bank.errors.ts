import { type ErrorCode, GiroError } from '../domain';

/** What a bank call was doing when it failed. `token` is the access-token request of OAuth2. */
export type BankOperation = 'create-transfer-request' | 'get-movement' | 'token';

export interface BankErrorDetails {
  operation: BankOperation;
  httpStatus?: number;
  /** The bank's error code, when its answer carried one. */
  bankCode?: string;
  /** The bank's own error message (bounded, our secrets removed). */
  bankMessage?: string;
  /** The low-level failure. Only its name, code and message are kept (see `copyCause`). */
  cause?: unknown;
}

/**
 * Every failure of a bank call. The subclass says what the caller must do; none of them carries a
 * secret: messages are built from the operation, the HTTP status and the bank's (redacted) text, and the
 * cause is reduced to a plain copy, so that no socket, request option or header travels with the error.
 * Its `code` is giro's (each subclass has its own, `errorCode`); the bank's own code is `bankCode`.
 */
export abstract class BankError extends GiroError {
  readonly operation: BankOperation;
  readonly httpStatus?: number;
  readonly bankCode?: string;
  readonly bankMessage?: string;

  constructor(message: string, details: BankErrorDetails) {
    super(
      (new.target as unknown as { errorCode: ErrorCode }).errorCode,
      message,
      details.cause === undefined ? undefined : { cause: copyCause(details.cause) },
    );
    this.operation = details.operation;
    if (details.httpStatus !== undefined) this.httpStatus = details.httpStatus;
    if (details.bankCode !== undefined) this.bankCode = details.bankCode;
    if (details.bankMessage !== undefined) this.bankMessage = details.bankMessage;
  }

  override answerFields() {
    return { bankCode: this.bankCode ?? null };
  }
}

/** Failed before any byte of the request left (DNS, refused, connect timeout, TLS handshake): safe to retry. */
export class BankNotSentError extends BankError {
  static readonly errorCode: ErrorCode = 'BANK_NOT_SENT';
}

/**
 * The bank answered 4xx: it refused the request, which therefore did not go out. For a transfer request
 * that is final (FAILED); for a get-movement it only says the query was refused — never that the
 * transfer failed.
 */
export class BankRejectedError extends BankError {
  static readonly errorCode: ErrorCode = 'BANK_REJECTED';
}

/** HTTP 409: a duplicate originId when `isDuplicateCode`, else read `bankCode` (docs/bank-api.md#repeated-originids). */
export class BankConflictError extends BankError {
  static readonly errorCode: ErrorCode = 'BANK_CONFLICT';
  readonly isDuplicateCode: boolean;

  constructor(message: string, details: BankErrorDetails & { isDuplicateCode: boolean }) {
    super(message, details);
    this.isDuplicateCode = details.isDuplicateCode;
  }
}

/** The request may have been processed (timeout or reset after sending, 5xx, 408): resolve it with a lookup. */
export class BankOutcomeUnknownError extends BankError {
  static readonly errorCode: ErrorCode = 'BANK_OUTCOME_UNKNOWN';
}

/** A 2xx answer we cannot trust (unparseable, HTML, unknown status, wrong types): still outcome unknown, never final. */
export class BankMalformedAnswerError extends BankOutcomeUnknownError {
  static override readonly errorCode: ErrorCode = 'BANK_MALFORMED_ANSWER';
}

/** get-movement found nothing (404 or a configured not-found code). Right after a create this is not FAILED. */
export class BankMovementNotFoundError extends BankError {
  static readonly errorCode: ErrorCode = 'BANK_MOVEMENT_NOT_FOUND';
}

/** 401/403 (after one token refresh and retry), or the token endpoint refused our credentials. */
export class BankAuthError extends BankError {
  static readonly errorCode: ErrorCode = 'BANK_AUTH_FAILED';
}

/** HTTP 429. `retryAfterMs` comes from Retry-After (seconds or HTTP date) when the bank sent one. */
export class BankRateLimitedError extends BankError {
  static readonly errorCode: ErrorCode = 'BANK_RATE_LIMITED';
  readonly retryAfterMs?: number;

  constructor(message: string, details: BankErrorDetails & { retryAfterMs?: number }) {
    super(message, details);
    if (details.retryAfterMs !== undefined) this.retryAfterMs = details.retryAfterMs;
  }
}

/** A bank client option is missing or invalid; the message names the option. */
export class BankOptionsError extends GiroError {
  constructor(message: string) {
    super('INVALID_OPTIONS', message);
  }
}

const MAX_CAUSE_DEPTH = 3;
const keepText = (text: string) => text;

/**
 * A plain Error with only the name, code and message of `cause` (and of its own causes, a few deep),
 * messages passed through `redact`. Low-level errors can hold sockets, request options or headers; the
 * copy holds none of that.
 */
export function copyCause(cause: unknown, redact: (text: string) => string = keepText, depth = 0): Error {
  if (!(cause instanceof Error)) return new Error(redact(String(cause)));
  const nested =
    depth < MAX_CAUSE_DEPTH && cause.cause !== undefined ? copyCause(cause.cause, redact, depth + 1) : undefined;
  const copy = new Error(redact(cause.message), nested === undefined ? undefined : { cause: nested });
  copy.name = cause.name;
  const code = (cause as { code?: unknown }).code;
  if (typeof code === 'string') Object.assign(copy, { code });
  copy.stack = `${copy.name}: ${copy.message}`;
  return copy;
}
