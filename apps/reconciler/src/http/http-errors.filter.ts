import type { IncomingMessage, ServerResponse } from 'node:http';
import { type ArgumentsHost, Catch, HttpException } from '@nestjs/common';
import { BaseExceptionFilter } from '@nestjs/core';
import { type ErrorBody, errorBody } from './error-body';

/**
 * Every client error (4xx) of the application in one shape — `{ statusCode, error, message, violations? }` —
 * whoever raised it: a guard (401, the throttler's 429), a pipe, the body reader, Nest's router (404). The
 * request line (pino-http) logs it at warn, without a stack: a client's mistake is not the server's error.
 * Server errors (5xx, anything unexpected) go to Nest's own handling: a generic 500 and an error log with the stack.
 *
 * An answer given before the request's body was read in full closes the connection, so the rest of that body
 * is not read at all.
 */
@Catch()
export class HttpErrorsFilter extends BaseExceptionFilter {
  override catch(exception: unknown, host: ArgumentsHost): void {
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
