import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type AuditRequest, GiroError } from '@giro/transfer-module';
import { type ExecutionContext, HttpException, HttpStatus } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import type { Reflector } from '@nestjs/core';
import { actorOf } from './admin-actor';
import { AUDITED_ACTION } from './audited.decorator';

// What the audit trail records of an admin request: which requests (those that may change something), as which
// action, under which request id, from which address, and how a failure reads.

const MUTATING_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const HTTP_METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'ALL', 'OPTIONS', 'HEAD'];
/** A request id the caller may choose (`X-Request-Id`): printable ASCII, no spaces. Anything else: one is made. */
const REQUEST_ID = /^[\x21-\x7e]{1,200}$/;
const MAX_ADDRESS_LENGTH = 100;
const MAX_TARGET_LENGTH = 200;

const requestIds = new WeakMap<IncomingMessage, string>();

/** Whether the audit trail records this request: POST, PUT, PATCH and DELETE, whatever their answer. */
export function isAudited(request: IncomingMessage): boolean {
  return MUTATING_METHODS.has(request.method ?? '');
}

/**
 * Who asked what: the actor (null before the guard let it through), the route's `@Audited` action (else
 * `<METHOD> <route path>`), the request id (the caller's `X-Request-Id`, else a new one, answered in the same
 * header) and the client's address (`request.ip`: Express honours the application's `trust proxy`).
 */
export function adminAuditRequest(reflector: Reflector, context: ExecutionContext): AuditRequest {
  const http = context.switchToHttp();
  // Express's request: `ip` (trust proxy applied) and the route's `params`.
  const request = http.getRequest<IncomingMessage & { ip?: string; params?: Record<string, string> }>();
  let requestId = requestIds.get(request);
  if (requestId === undefined) {
    const given = request.headers['x-request-id'];
    requestId = typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    requestIds.set(request, requestId);
    http.getResponse<ServerResponse>().setHeader('X-Request-Id', requestId);
  }
  const address = request.ip ?? request.socket?.remoteAddress ?? null;
  const { originId, ...others } = request.params ?? {};
  const target = others.id ?? others.name ?? others.address ?? others.deliveryId;
  const originIdNumber = originId !== undefined && /^[1-9][0-9]{0,15}$/.test(originId) ? Number(originId) : null;
  return {
    who: actorOf(request) ?? null,
    action: reflector.get<string | undefined>(AUDITED_ACTION, context.getHandler()) ?? routeOf(context),
    requestId,
    clientAddress: address === null ? null : address.slice(0, MAX_ADDRESS_LENGTH),
    originId: originIdNumber !== null && Number.isSafeInteger(originIdNumber) ? originIdNumber : null,
    target: target === undefined ? null : target.slice(0, MAX_TARGET_LENGTH),
  };
}

/** `POST /admin/keys/:name/revoke`: the route as declared, for a route without `@Audited`. */
function routeOf(context: ExecutionContext): string {
  const method = HTTP_METHODS[Reflect.getMetadata(METHOD_METADATA, context.getHandler()) as number] ?? 'ANY';
  const parts = [
    Reflect.getMetadata(PATH_METADATA, context.getClass()),
    Reflect.getMetadata(PATH_METADATA, context.getHandler()),
  ]
    .map((part) => String(Array.isArray(part) ? part[0] : (part ?? '')).replace(/^\/+|\/+$/g, ''))
    .filter((part) => part !== '');
  return `${method} /${parts.join('/')}`;
}

/** The HTTP status and message a failed admin request is answered with, as its `refused` row records them. */
export function describeAdminError(error: unknown): { statusCode: number; message: string } {
  if (error instanceof HttpException) return { statusCode: error.getStatus(), message: httpMessage(error) };
  if (error instanceof GiroError) return { statusCode: error.httpStatusCode, message: error.message };
  // Anything else is answered 500 by Nest, without its message: the trail keeps its name only.
  return { statusCode: HttpStatus.INTERNAL_SERVER_ERROR, message: error instanceof Error ? error.name : 'error' };
}

/** An HttpException's message as its answer says it (a 400's violations, joined). */
function httpMessage(error: HttpException): string {
  const response = error.getResponse();
  const message =
    typeof response === 'object' && response !== null ? (response as { message?: unknown }).message : response;
  if (Array.isArray(message)) return message.join('; ');
  return typeof message === 'string' ? message : error.message;
}
