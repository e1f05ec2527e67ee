import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Injectable, type NestMiddleware } from '@nestjs/common';
import { SecretRedactor } from './secret-redactor';

/** A request id the caller may choose (`X-Request-Id`): printable ASCII, no spaces. Anything else: one is made. */
const REQUEST_ID = /^[\x21-\x7e]{1,200}$/;

const requestIds = new WeakMap<IncomingMessage, string>();

/**
 * The id of an admin request, chosen once and answered in `X-Request-Id`: the caller's own when it gave a usable
 * one — with any credential in it redacted, so a token pasted there is neither echoed, logged nor audited —,
 * else a new one. The audit rows and the request's log line carry the same id.
 */
export function requestIdOf(request: IncomingMessage, response: ServerResponse, redactor: SecretRedactor): string {
  let requestId = requestIds.get(request);
  if (requestId === undefined) {
    const given = request.headers['x-request-id'];
    const redacted = typeof given === 'string' ? redactor.redact(given) : undefined;
    requestId = redacted !== undefined && REQUEST_ID.test(redacted) ? redacted : randomUUID();
    requestIds.set(request, requestId);
    if (!response.headersSent) response.setHeader('X-Request-Id', requestId);
  }
  return requestId;
}

/**
 * Gives every admin request its id before anything can refuse it (a body reader, a rate limit, the router), and
 * redacts the header itself: whatever logs the request's headers later sees the id as answered.
 */
@Injectable()
export class AdminRequestIdMiddleware implements NestMiddleware {
  constructor(private readonly redactor: SecretRedactor) {}

  use(request: IncomingMessage, response: ServerResponse, next: () => void): void {
    const requestId = requestIdOf(request, response, this.redactor);
    if (request.headers['x-request-id'] !== undefined) request.headers['x-request-id'] = requestId;
    next();
  }
}
