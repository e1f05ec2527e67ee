import { type ServerResponse, STATUS_CODES } from 'node:http';
import {
  CancellationNotFoundError,
  MovementBusyError,
  MovementNotFoundError,
  PollTooSoonError,
  StoreArgumentError,
  TransferConflictError,
  TransferValidationError,
} from '@giro/transfer-module';
import { type ArgumentsHost, Catch, type ExceptionFilter, HttpStatus } from '@nestjs/common';
import { SweepsStoppedError } from '../sweep/sweep-runner';

type KnownError =
  | TransferValidationError
  | StoreArgumentError
  | TransferConflictError
  | MovementBusyError
  | MovementNotFoundError
  | CancellationNotFoundError
  | PollTooSoonError
  | SweepsStoppedError;

interface ErrorReply {
  status: number;
  body: Record<string, unknown>;
  headers?: Record<string, string>;
}

/** What each error of the transfer module means over HTTP. */
export function replyFor(error: KnownError): ErrorReply {
  const reply = (status: HttpStatus, extra: Record<string, unknown> = {}): ErrorReply => ({
    status,
    body: { statusCode: status, error: STATUS_CODES[status], message: error.message, ...extra },
  });
  if (error instanceof TransferValidationError) return reply(HttpStatus.BAD_REQUEST, { violations: error.violations });
  if (error instanceof StoreArgumentError) {
    return reply(HttpStatus.BAD_REQUEST, {
      violations: [{ field: error.field, rule: error.rule, message: error.message.slice(error.field.length + 1) }],
    });
  }
  if (error instanceof TransferConflictError) return reply(HttpStatus.CONFLICT, { originId: error.originId });
  if (error instanceof MovementBusyError) return reply(HttpStatus.CONFLICT, { originId: error.originId });
  if (error instanceof PollTooSoonError) {
    // Retry-After is in whole seconds: round up, so a client that obeys it is never early.
    const seconds = Math.max(1, Math.ceil(error.retryAfterMs / 1000));
    return {
      ...reply(HttpStatus.TOO_MANY_REQUESTS, { originId: error.originId, retryAt: error.retryAt.toISOString() }),
      headers: { 'Retry-After': String(seconds) },
    };
  }
  if (error instanceof SweepsStoppedError) return reply(HttpStatus.SERVICE_UNAVAILABLE);
  return reply(HttpStatus.NOT_FOUND, { originId: error.originId });
}

/** Turns the transfer module's typed errors into their HTTP answers; anything else goes to Nest's default. */
@Catch(
  TransferValidationError,
  StoreArgumentError,
  TransferConflictError,
  MovementBusyError,
  MovementNotFoundError,
  CancellationNotFoundError,
  PollTooSoonError,
  SweepsStoppedError,
)
export class TransferErrorsFilter implements ExceptionFilter<KnownError> {
  catch(error: KnownError, host: ArgumentsHost): void {
    const response = host.switchToHttp().getResponse<ServerResponse>();
    const { status, body, headers } = replyFor(error);
    for (const [name, value] of Object.entries(headers ?? {})) response.setHeader(name, value);
    response.statusCode = status;
    response.setHeader('Content-Type', 'application/json; charset=utf-8');
    response.end(JSON.stringify(body));
  }
}
