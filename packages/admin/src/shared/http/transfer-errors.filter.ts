import { type ServerResponse, STATUS_CODES } from 'node:http';
import {
  AnomalyAlreadyResolvedError,
  AnomalyNotFoundError,
  ApiKeyNameTakenError,
  ApiKeyNotFoundError,
  ApiKeyValidationError,
  ApprovalExpiredError,
  ApprovalNotAwaitedError,
  BankError,
  BankLookupFailedError,
  BankMovementNotFoundError,
  CancellationNotFoundError,
  MovementBusyError,
  MovementNotFoundError,
  PollTooSoonError,
  PspModeRequiredError,
  SelfApprovalError,
  SubAccountConflictError,
  SubAccountNotFoundError,
  TransferConflictError,
  TransferLimitError,
  TransferValidationError,
  UnsentMovementError,
  WebhookDeliveryNotFoundError,
  WebhookEndpointNotFoundError,
  WebhooksDisabledError,
  WebhookValidationError,
} from '@giro/transfer-module';
import { type ArgumentsHost, Catch, type ExceptionFilter, HttpStatus } from '@nestjs/common';
import { SweepUnavailableError } from '../../sweep/sweep-unavailable.error';
import { badRequestBody } from './admin-validation.pipe';

type KnownError =
  | AnomalyNotFoundError
  | AnomalyAlreadyResolvedError
  | ApiKeyValidationError
  | ApiKeyNameTakenError
  | ApiKeyNotFoundError
  | TransferValidationError
  | TransferLimitError
  | TransferConflictError
  | MovementBusyError
  | MovementNotFoundError
  | CancellationNotFoundError
  | PollTooSoonError
  | SweepUnavailableError
  | BankError
  | BankLookupFailedError
  | PspModeRequiredError
  | SubAccountConflictError
  | SubAccountNotFoundError
  | WebhookValidationError
  | WebhookEndpointNotFoundError
  | WebhookDeliveryNotFoundError
  | WebhooksDisabledError
  | ApprovalNotAwaitedError
  | ApprovalExpiredError
  | SelfApprovalError
  | UnsentMovementError;

interface ErrorReply {
  status: number;
  body: Record<string, unknown>;
  headers?: Record<string, string>;
}

/** What each error of the transfer module (and a refused sweep) means over HTTP; keys' and webhooks' errors included. */
export function replyFor(error: KnownError): ErrorReply {
  const reply = (status: HttpStatus, extra: Record<string, unknown> = {}): ErrorReply => ({
    status,
    // `errorName` names the refusal for a program (the console says it in its reader's language), as a batch
    // decision's `error.name` does; `message` explains it in English.
    body: { statusCode: status, error: STATUS_CODES[status], errorName: error.name, message: error.message, ...extra },
  });
  if (error instanceof TransferValidationError)
    return { status: HttpStatus.BAD_REQUEST, body: badRequestBody(error.violations) };
  // A well-formed transfer that would pass a limit of its source account: the same violations shape as a 400,
  // 422 because the request itself is fine (it may fit another day, or once a FAILED one frees its share).
  if (error instanceof TransferLimitError) {
    const status = HttpStatus.UNPROCESSABLE_ENTITY;
    return { status, body: { ...badRequestBody(error.violations), statusCode: status, error: STATUS_CODES[status] } };
  }
  // The admin API's keys: named by the key's name, never its secret.
  if (error instanceof ApiKeyValidationError)
    return { status: HttpStatus.BAD_REQUEST, body: badRequestBody(error.violations) };
  if (error instanceof ApiKeyNameTakenError) return reply(HttpStatus.CONFLICT, { name: error.keyName });
  if (error instanceof ApiKeyNotFoundError) return reply(HttpStatus.NOT_FOUND, { name: error.keyName });
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
  if (error instanceof SweepUnavailableError) return reply(HttpStatus.SERVICE_UNAVAILABLE);
  // Anomalies: a second resolution is refused with the first, which stays (who, when, the note).
  if (error instanceof AnomalyNotFoundError) return reply(HttpStatus.NOT_FOUND, { anomalyId: error.anomalyId });
  if (error instanceof AnomalyAlreadyResolvedError) {
    const { at, by, note } = error.resolution;
    return reply(HttpStatus.CONFLICT, { anomalyId: error.anomalyId, resolution: { at: at.toISOString(), by, note } });
  }
  // A lookup at the bank (POST /admin/bank/lookup, GET …/raw) that got no movement: the bank does not know it,
  // or gave no usable answer. A BankError's message names the operation and the bank's code, never a secret.
  if (error instanceof BankMovementNotFoundError) return reply(HttpStatus.NOT_FOUND);
  if (error instanceof BankError) return reply(HttpStatus.BAD_GATEWAY, { code: error.code ?? null });
  if (error instanceof BankLookupFailedError) return reply(HttpStatus.BAD_GATEWAY, { originId: error.originId });
  if (error instanceof PspModeRequiredError) return reply(HttpStatus.FORBIDDEN);
  if (error instanceof SubAccountConflictError) return reply(HttpStatus.CONFLICT, { address: error.address });
  if (error instanceof SubAccountNotFoundError) return reply(HttpStatus.NOT_FOUND, { address: error.address });
  // Webhooks: an endpoint's input names each bad field; ids are giro's, never a secret or a URL.
  if (error instanceof WebhookValidationError)
    return { status: HttpStatus.BAD_REQUEST, body: badRequestBody(error.violations) };
  if (error instanceof WebhookEndpointNotFoundError)
    return reply(HttpStatus.NOT_FOUND, { endpointId: error.endpointId });
  if (error instanceof WebhookDeliveryNotFoundError)
    return reply(HttpStatus.NOT_FOUND, { deliveryId: error.deliveryId });
  // The routes exist but the application runs without the module's `webhooks` option: a state, not a missing id.
  if (error instanceof WebhooksDisabledError) return reply(HttpStatus.CONFLICT);
  if (error instanceof ApprovalNotAwaitedError || error instanceof UnsentMovementError)
    return reply(HttpStatus.CONFLICT, { originId: error.originId, status: error.status });
  if (error instanceof ApprovalExpiredError)
    return reply(HttpStatus.CONFLICT, { originId: error.originId, expiredAt: error.expiredAt.toISOString() });
  if (error instanceof SelfApprovalError) return reply(HttpStatus.FORBIDDEN, { originId: error.originId });
  return reply(HttpStatus.NOT_FOUND, { originId: error.originId });
}

/**
 * Turns the transfer module's typed errors into their HTTP answers on the admin routes (the module's controllers
 * use it, not the application); anything else goes to the application's filters and Nest's default.
 */
@Catch(
  AnomalyNotFoundError,
  AnomalyAlreadyResolvedError,
  ApiKeyValidationError,
  ApiKeyNameTakenError,
  ApiKeyNotFoundError,
  TransferValidationError,
  TransferLimitError,
  TransferConflictError,
  MovementBusyError,
  MovementNotFoundError,
  CancellationNotFoundError,
  PollTooSoonError,
  SweepUnavailableError,
  BankError,
  BankLookupFailedError,
  PspModeRequiredError,
  SubAccountConflictError,
  SubAccountNotFoundError,
  WebhookValidationError,
  WebhookEndpointNotFoundError,
  WebhookDeliveryNotFoundError,
  WebhooksDisabledError,
  ApprovalNotAwaitedError,
  ApprovalExpiredError,
  SelfApprovalError,
  UnsentMovementError,
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
