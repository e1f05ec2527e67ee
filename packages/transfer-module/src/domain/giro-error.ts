import { ERROR_CODES, type ErrorCode } from './error-codes';
import type { Violation } from './violation';

/**
 * The base of every error giro answers: a stable `code` (docs/errors.md) and the HTTP status it is answered
 * with (`httpStatusCode`, from ERROR_CODES). Its subclasses keep saying what the caller must do (`BankNotSentError`:
 * safe to retry); the admin API answers any of them by its code, and a program tells them apart by it too.
 * Messages are English, for logs, and never carry a secret.
 */
export abstract class GiroError extends Error {
  /**
   * The HTTP status this error is answered with. Not `statusCode`: Nest's default filter would answer an error
   * with one on a host's own routes, which leave giro's errors to the host.
   */
  readonly httpStatusCode: number;
  /** The fields at fault, for the refusals of an input. */
  declare readonly violations?: readonly Violation[];

  constructor(
    readonly code: ErrorCode,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = new.target.name;
    this.httpStatusCode = ERROR_CODES[code].status;
  }

  /** What an answer says besides its status, code, message and violations: the ids and values a client acts on. */
  answerFields(): Record<string, unknown> {
    return {};
  }
}
