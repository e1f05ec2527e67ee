import type { IncomingMessage, ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { authenticateApiRequest } from '../auth/api-authenticator';
import { decideFault, isAnswerFault } from '../faults/fault-decision';
import {
  BodyTooLargeError,
  errorReply,
  type JsonReply,
  mediaTypeOf,
  parseJson,
  readBody,
  sendJson,
  sendText,
} from '../server/http-io';
import type { SandboxState } from '../server/sandbox-state';
import type { ApiEndpoint } from './api-endpoint';

/**
 * One API request, in the order a careful bank would: body (bounded) → token and HMAC → JSON →
 * validation → the fault drawn for this request → processing → the answer (or its loss). Anything
 * refused before processing changes nothing but the counters.
 */
export async function handleApiRequest<Input>(
  endpoint: ApiEndpoint<Input>,
  state: SandboxState,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  const refuse = (outcome: string, reply: JsonReply) => {
    state.counters.request(endpoint.name, outcome);
    sendJson(response, reply);
  };
  if (request.method !== 'POST') {
    return refuse('method-not-allowed', errorReply(405, 'METHOD_NOT_ALLOWED', `${endpoint.path} accepts POST only`));
  }
  let rawBody: Buffer;
  try {
    rawBody = await readBody(request, state.maxBodyBytes);
  } catch (error) {
    if (!(error instanceof BodyTooLargeError)) throw error;
    const reply = errorReply(413, 'PAYLOAD_TOO_LARGE', error.message);
    return refuse('too-large', { ...reply, headers: { connection: 'close' } });
  }

  const authFailure = authenticateApiRequest(
    request,
    rawBody,
    state.nowMs(),
    state.credentials,
    state.tokens,
    state.config.hmac,
  );
  if (authFailure) return refuse('unauthorized', errorReply(401, authFailure.code, authFailure.message));
  if (mediaTypeOf(request) !== 'application/json') {
    return refuse('invalid', errorReply(415, 'UNSUPPORTED_MEDIA_TYPE', 'Content-Type must be application/json'));
  }
  const parsed = parseJson(rawBody);
  if (!parsed.ok) return refuse('invalid', errorReply(400, 'INVALID_JSON', 'the body is not valid JSON'));
  const validated = endpoint.validate(parsed.value);
  if (!validated.ok) {
    const [first] = validated.violations;
    return refuse('invalid', errorReply(400, first.code, first.message, { violations: validated.violations }));
  }

  const { faults } = state.config;
  const fault = decideFault(faults, () => state.random());
  if (faults.latencyMs > 0) {
    state.counters.fault('latency');
    await sleep(faults.latencyMs);
  }
  if (fault) state.counters.fault(fault);
  switch (fault) {
    case 'rate-limited':
      return refuse(fault, {
        ...errorReply(429, 'RATE_LIMITED', 'too many requests; retry later'),
        headers: { 'retry-after': String(faults.retryAfterSeconds) },
      });
    case 'server-error':
      return refuse(fault, errorReply(500, 'INTERNAL_ERROR', 'the bank could not process the request'));
    case 'reset-before':
      state.counters.request(endpoint.name, fault);
      request.socket.destroy();
      return;
    case 'hang':
      // No answer at all: the client's own timeout ends it (or close() of the sandbox).
      state.counters.request(endpoint.name, fault);
      return;
  }

  const nowMs = state.nowMs();
  const processed = endpoint.process(validated.value, state, nowMs, isAnswerFault(fault) ? fault : undefined);
  state.counters.request(endpoint.name, processed.outcome);
  if (processed.loseAnswer || fault === 'reset-after') {
    request.socket.destroy();
  } else if (fault === 'malformed') {
    const json = JSON.stringify(processed.reply.body);
    sendText(response, 200, json.slice(0, Math.floor(json.length / 2)));
  } else {
    sendJson(response, processed.reply);
    if (processed.reports)
      state.ledger.recordAnswerDelivered(processed.reports.movement, nowMs, processed.reports.status);
  }
}
