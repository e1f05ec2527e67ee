import type { IncomingMessage, ServerResponse } from 'node:http';
import { type Actor, type AuditRequest, GiroError, type Violation } from '@giro/transfer-module';
import { type ExecutionContext, HttpException, HttpStatus } from '@nestjs/common';
import type { Reflector } from '@nestjs/core';
import { actorOf } from './admin-actor';
import { requestIdOf } from './admin-request-id';
import { declaredRoute } from './admin-route-table';
import { AUDITED_ACTION } from './audited.decorator';
import type { SecretRedactor } from './secret-redactor';

// What the audit trail records of an admin request: which requests run in an audit scope (those that may change
// something, and the reads that are actions of their own), as which action, under which request id, from which
// address, and how a failure reads — every text a client chose redacted of credentials first.

const MUTATING_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const MAX_ADDRESS_LENGTH = 100;
const MAX_TARGET_LENGTH = 200;

/** Express's request: `ip` (trust proxy applied) and the route's `params`. */
export type ExpressRequest = IncomingMessage & { ip?: string; originalUrl?: string; params?: Record<string, string> };

/**
 * Whether the request runs in an audit scope, which records its outcome whatever it is: POST, PUT, PATCH and
 * DELETE, and a read its route declares `@Audited` (it asks the bank, or takes the data away: an export).
 */
export function isAuditedRoute(request: IncomingMessage, declaredAction: string | undefined): boolean {
  return MUTATING_METHODS.has(request.method ?? '') || declaredAction !== undefined;
}

const recordedInScope = new WeakSet<IncomingMessage>();

/** Says that the request's audit scope records its outcome, a refusal included: no one else records it. */
export function markRecordedInScope(request: IncomingMessage): void {
  recordedInScope.add(request);
}

export function isRecordedInScope(request: IncomingMessage): boolean {
  return recordedInScope.has(request);
}

/** The audit request of a route about to run: its `@Audited` action, else `<METHOD> <route path>`. */
export function adminAuditRequest(
  reflector: Reflector,
  context: ExecutionContext,
  redactor: SecretRedactor,
): AuditRequest {
  const http = context.switchToHttp();
  const request = http.getRequest<ExpressRequest>();
  return auditRequestOf(request, http.getResponse<ServerResponse>(), redactor, {
    who: actorOf(request) ?? null,
    action: declaredActionOf(reflector, context) ?? declaredRoute(context.getClass(), context.getHandler()),
    params: request.params ?? {},
  });
}

/** The action the route declares with `@Audited`, if it does. */
export function declaredActionOf(reflector: Reflector, context: ExecutionContext): string | undefined {
  return reflector.get<string | undefined>(AUDITED_ACTION, context.getHandler());
}

/**
 * Who asked what: the actor (null without a valid credential), the action, the request id (requestIdOf), the
 * client's address (`request.ip`: Express honours the application's `trust proxy`), and what the request is
 * about — its `:originId`, else another path parameter. Never the query: its values are the client's to choose.
 */
export function auditRequestOf(
  request: ExpressRequest,
  response: ServerResponse,
  redactor: SecretRedactor,
  route: { who: Actor | null; action: string; params: Record<string, string> },
): AuditRequest {
  const address = request.ip ?? request.socket?.remoteAddress ?? null;
  const { originId, ...others } = route.params;
  const target = others.id ?? others.name ?? others.address ?? others.deliveryId;
  const originIdNumber = originId !== undefined && /^[1-9][0-9]{0,15}$/.test(originId) ? Number(originId) : null;
  return {
    who: route.who,
    action: route.action,
    requestId: requestIdOf(request, response, redactor),
    clientAddress: address === null ? null : redactor.redact(address).slice(0, MAX_ADDRESS_LENGTH),
    originId: originIdNumber !== null && Number.isSafeInteger(originIdNumber) ? originIdNumber : null,
    target: target === undefined ? null : redactor.redact(target).slice(0, MAX_TARGET_LENGTH),
  };
}

/**
 * The HTTP status and message a failed admin request is answered with, as its `refused` row records them:
 * redacted of credentials, and without the names of fields the API does not know (a client chose them; a secret
 * pasted as a field name would otherwise be kept for every viewer to read).
 */
export function describeAdminError(error: unknown, redactor: SecretRedactor): { statusCode: number; message: string } {
  const { statusCode, message } = describedError(error);
  return { statusCode, message: redactor.redact(message) };
}

function describedError(error: unknown): { statusCode: number; message: string } {
  if (error instanceof HttpException) {
    const violations = violationsOf(error.getResponse());
    return {
      statusCode: error.getStatus(),
      message: violations === undefined ? httpMessage(error) : recordedViolations(violations),
    };
  }
  if (error instanceof GiroError) {
    return {
      statusCode: error.httpStatusCode,
      message: error.violations === undefined ? error.message : recordedViolations(error.violations),
    };
  }
  // Anything else is answered 500 by Nest, without its message: the trail keeps its name only.
  return { statusCode: HttpStatus.INTERNAL_SERVER_ERROR, message: error instanceof Error ? error.name : 'error' };
}

/** Rules whose violation names what the client sent instead of what the API knows. */
const CLIENT_NAMED_RULES: Readonly<Record<string, string>> = {
  unknown_field: '(a field the API does not know) is not a known field',
  unknown_column: 'header names columns a batch does not take',
};

/** The violations as the answer's message lists them, but naming no field the API does not know. */
function recordedViolations(violations: readonly Violation[]): string {
  return violations
    .map(
      (violation) =>
        CLIENT_NAMED_RULES[violation.rule] ??
        `${violation.field === '' ? '(request)' : violation.field} ${violation.message}`,
    )
    .join('; ');
}

function violationsOf(response: unknown): Violation[] | undefined {
  const violations =
    typeof response === 'object' && response !== null ? (response as { violations?: unknown }).violations : undefined;
  return Array.isArray(violations) ? (violations as Violation[]) : undefined;
}

/** An HttpException's message as its answer says it (a 400's violations, joined). */
function httpMessage(error: HttpException): string {
  const response = error.getResponse();
  const message =
    typeof response === 'object' && response !== null ? (response as { message?: unknown }).message : response;
  if (Array.isArray(message)) return message.join('; ');
  return typeof message === 'string' ? message : error.message;
}
