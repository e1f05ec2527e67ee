import type { IncomingMessage, ServerResponse } from 'node:http';
import { isDatabaseUnavailable } from '@giro/transfer-module';
import { type ArgumentsHost, Catch, HttpException } from '@nestjs/common';
import { BaseExceptionFilter } from '@nestjs/core';
import { DatabaseOutageLog } from './database-outage-log';
import { type ErrorBody, errorBody } from './error-body';

/**
 * Every client error (4xx) of the application in one shape — `{ statusCode, error, message, violations? }` —
 * whoever raised it: a guard (401, the throttler's 429), a pipe, the body reader, Nest's router (404). The
 * request line (pino-http) logs it at warn, without a stack: a client's mistake is not the server's error.
 * The database out (unreachable, restarting, locked by another process, out of disk) is 503 with Retry-After:
 * the client tries again, nothing was changed (each change is one transaction), and the outage is logged once.
 * Other server errors (5xx, anything unexpected) go to Nest's own handling: a generic 500 and an error log with
 * the stack.
 *
 * An answer given before the request's body was read in full closes the connection, so the rest of that body
 * is not read at all.
 */
@Catch()
export class HttpErrorsFilter extends BaseExceptionFilter {
  private readonly outages = new DatabaseOutageLog();

  override catch(exception: unknown, host: ArgumentsHost): void {
    if (host.getType() === 'http' && isDatabaseUnavailable(exception)) {
      this.outages.failed(exception);
      answerUnavailable(host.switchToHttp().getResponse<ServerResponse>());
      return;
    }
    if (host.getType() !== 'http' || !(exception instanceof HttpException) || exception.getStatus() >= 500) {
      super.catch(exception, host);
      return;
    }
    const http = host.switchToHttp();
    const response = http.getResponse<ServerResponse>();
    if (response.headersSent) {
      response.end();
      return;
    }
    const status = exception.getStatus();
    if (!http.getRequest<IncomingMessage>().complete) response.setHeader('Connection', 'close');
    response.statusCode = status;
    response.setHeader('Content-Type', 'application/json; charset=utf-8');
    response.end(JSON.stringify(clientErrorBody(status, exception.getResponse())));
  }
}

/** What an HttpException said, in the one shape: its extra fields kept, `message` always one string. */
export function clientErrorBody(status: number, said: string | object): ErrorBody {
  if (typeof said === 'string') return errorBody(status, said);
  const { statusCode: _statusCode, error: _error, message, ...extra } = said as Record<string, unknown>;
  const text = Array.isArray(message) ? message.join('; ') : typeof message === 'string' ? message : '';
  return { ...errorBody(status, text), ...extra };
}

/** Seconds a client is asked to wait when the database is out. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

function answerUnavailable(response: ServerResponse): void {
  if (response.headersSent) {
    response.end();
    return;
  }
  response.statusCode = 503;
  response.setHeader('Retry-After', String(DATABASE_RETRY_AFTER_SECONDS));
  response.setHeader('Content-Type', 'application/json; charset=utf-8');
  response.end(JSON.stringify(errorBody(503, 'the database is unavailable for now; nothing was changed, try again')));
}
