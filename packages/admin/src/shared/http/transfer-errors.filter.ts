import type { IncomingMessage, ServerResponse } from 'node:http';
import { errorCodeForStatus, GiroError, isErrorCode, PollTooSoonError } from '@giro/transfer-module';
import { type ArgumentsHost, Catch, type ExceptionFilter, HttpException, Injectable } from '@nestjs/common';
import { AdminRefusalAudit } from './admin-refusal-audit';
import { type ErrorBody, errorBody, violationsBody } from './error-body';

export interface ErrorReply {
  status: number;
  body: ErrorBody;
  headers?: Record<string, string>;
}

/**
 * The answer to an error, by its code (docs/errors.md): a GiroError's code and status (ERROR_CODES), its
 * violations and the fields it names (`answerFields`), and `errorName`, the error's class name, as the console and
 * batch decisions have read it. An HttpException (a guard's 401 or 403, a pipe's 400, the throttler's 429, Nest's
 * 404) keeps what it said, with the code its body gives or else its status's (errorCodeForStatus); a health
 * report's `error` (which checks failed) stays as it is. Anything else is 500 INTERNAL, saying nothing of it: log
 * it where it is caught.
 */
export function errorReply(error: unknown): ErrorReply {
  if (error instanceof HttpException) return httpExceptionReply(error);
  if (!(error instanceof GiroError)) return { status: 500, body: errorBody(500, 'INTERNAL', 'Internal server error') };
  const extra = { errorName: error.name, ...error.answerFields() };
  const body =
    error.violations === undefined
      ? errorBody(error.httpStatusCode, error.code, error.message, extra)
      : violationsBody(error.httpStatusCode, error.code, error.violations, extra);
  if (error instanceof PollTooSoonError) {
    // Retry-After is in whole seconds: round up, so a client that obeys it is never early.
    const seconds = Math.max(1, Math.ceil(error.retryAfterMs / 1000));
    return { status: error.httpStatusCode, body, headers: { 'Retry-After': String(seconds) } };
  }
  return { status: error.httpStatusCode, body };
}

function httpExceptionReply(exception: HttpException): ErrorReply {
  const status = exception.getStatus();
  const said = exception.getResponse();
  if (typeof said === 'string') return { status, body: errorBody(status, errorCodeForStatus(status), said) };
  const { statusCode: _statusCode, code, error, message, ...extra } = said as Record<string, unknown>;
  const text = Array.isArray(message) ? message.join('; ') : typeof message === 'string' ? message : exception.message;
  const health = error !== undefined && typeof error !== 'string' ? { error } : {};
  return {
    status,
    body: errorBody(status, isErrorCode(code) ? code : errorCodeForStatus(status), text, { ...extra, ...health }),
  };
}

/**
 * Writes an error answer. One given before the request's body was read in full closes the connection, so the rest
 * of that body is not read at all; one after the answer began only ends it.
 */
export function writeErrorReply(host: ArgumentsHost, { status, body, headers }: ErrorReply): void {
  const http = host.switchToHttp();
  const response = http.getResponse<ServerResponse>();
  if (response.headersSent) {
    response.end();
    return;
  }
  for (const [name, value] of Object.entries(headers ?? {})) response.setHeader(name, value);
  if (!http.getRequest<IncomingMessage>().complete) response.setHeader('Connection', 'close');
  response.statusCode = status;
  response.setHeader('Content-Type', 'application/json; charset=utf-8');
  response.end(JSON.stringify(body));
}

/**
 * The admin routes' errors, answered by code (docs/errors.md): every GiroError — the transfer module's, the
 * admin's own — and Nest's HttpExceptions on these routes (guards, pipes, the throttler), each refusal recorded in
 * the audit trail before it is answered. Anything else goes to the application's filters and Nest's default.
 */
@Injectable()
@Catch(GiroError, HttpException)
export class TransferErrorsFilter implements ExceptionFilter<GiroError | HttpException> {
  constructor(private readonly refusals: AdminRefusalAudit) {}

  async catch(error: GiroError | HttpException, host: ArgumentsHost): Promise<void> {
    const http = host.switchToHttp();
    await this.refusals.record(http.getRequest(), http.getResponse(), error, { routed: true });
    writeErrorReply(host, errorReply(error));
  }
}
