import { context, propagation, ROOT_CONTEXT, type Span, SpanKind } from '@opentelemetry/api';
import { Agent, errors as undiciErrors } from 'undici';
import { giroTracer, httpClientAttributes, markFailed } from '../domain/tracing';
import type { ClaimedDelivery } from '../persistence';
import { parseRetryAfter } from './retry-schedule';
import { signedHeaders } from './webhook-signature';
import { explainWebhookUrl, safeLookup, type WebhookTargetRules } from './webhook-target';

/** What one POST of a delivery came to. */
export interface PostOutcome {
  /** The receiver's HTTP status; null when no answer came. */
  statusCode: number | null;
  /** Why it is not delivered (null when delivered). */
  error: string | null;
  /** The start of the answer's body, for an operator. */
  response: string | null;
  durationMs: number;
  /** The receiver's Retry-After, on 429 and 503. */
  retryAfterMs?: number;
}

/** The answer is read up to this much, then the connection is dropped: a receiver cannot make giro buffer more. */
const MAX_RESPONSE_BYTES = 64 * 1024;
/** What of it is kept with the attempt. */
const KEPT_RESPONSE_CHARACTERS = 1024;

/**
 * POSTs deliveries, signed, through one keep-alive agent whose connections check the address they reach
 * (webhook-target.ts). Redirects are not followed: a 3xx is a failed attempt. The whole attempt (connecting,
 * sending, reading the answer to its bound) has `timeoutMs`.
 */
export class WebhookPost {
  private readonly agent: Agent;

  constructor(private readonly options: WebhookTargetRules & { timeoutMs: number }) {
    this.agent = new Agent({
      connect: { lookup: safeLookup(options), timeout: options.timeoutMs },
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
    });
  }

  /**
   * One attempt as an HTTP client span (no body, no secret, the URL without its query), a child of the change that
   * caused the event when that was traced; the request carries the span's `traceparent`, so that a receiver that
   * traces continues from the delivery, in the same trace as the change.
   */
  post(delivery: ClaimedDelivery, at: Date): Promise<PostOutcome> {
    const attributes = { ...httpClientAttributes(delivery.url), 'giro.webhook.event_id': delivery.eventId };
    // A child of the change that caused the event, when it was traced: one trace from the host's request to here.
    const parent =
      delivery.traceParent === null
        ? context.active()
        : propagation.extract(ROOT_CONTEXT, { traceparent: delivery.traceParent });
    return giroTracer.startActiveSpan('POST', { kind: SpanKind.CLIENT, attributes }, parent, async (span) => {
      try {
        const outcome = await this.postInSpan(delivery, at);
        recordOutcome(span, outcome);
        return outcome;
      } finally {
        span.end();
      }
    });
  }

  private async postInSpan(delivery: ClaimedDelivery, at: Date): Promise<PostOutcome> {
    const traceHeaders: Record<string, string> = {};
    propagation.inject(context.active(), traceHeaders);
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    // A host given as an address connects without a lookup: checked here (the rules may have changed since).
    const refused = explainWebhookUrl(delivery.url, this.options);
    if (refused !== undefined) return { statusCode: null, error: `url ${refused}`, response: null, durationMs: 0 };
    try {
      const { statusCode, headers, body } = await this.agent.request({
        origin: new URL(delivery.url).origin,
        path: pathOf(delivery.url),
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'giro-webhooks',
          ...traceHeaders,
          ...signedHeaders(delivery.secrets, { id: delivery.eventId, payload: delivery.payload, at }),
        },
        body: delivery.payload,
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
      const response = await readBounded(body);
      const outcome: PostOutcome = { statusCode, error: null, response, durationMs: elapsed() };
      if (statusCode >= 200 && statusCode < 300) return outcome;
      outcome.error =
        statusCode >= 300 && statusCode < 400
          ? `HTTP ${statusCode} (redirects are not followed)`
          : `HTTP ${statusCode}`;
      if (statusCode === 429 || statusCode === 503) {
        const retryAfterMs = parseRetryAfter(headers['retry-after'], at.getTime());
        if (retryAfterMs !== undefined) outcome.retryAfterMs = retryAfterMs;
      }
      return outcome;
    } catch (error) {
      return {
        statusCode: null,
        error: describeFailure(error, this.options.timeoutMs),
        response: null,
        durationMs: elapsed(),
      };
    }
  }

  close(): Promise<void> {
    return this.agent.close();
  }
}

function pathOf(url: string): string {
  const { pathname, search } = new URL(url);
  return `${pathname}${search}`;
}

async function readBounded(body: AsyncIterable<Buffer> & { destroy(): void }): Promise<string | null> {
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of body) {
    chunks.push(chunk);
    length += chunk.length;
    if (length >= MAX_RESPONSE_BYTES) {
      body.destroy();
      break;
    }
  }
  if (length === 0) return null;
  return Buffer.concat(chunks)
    .toString('utf8', 0, Math.min(length, KEPT_RESPONSE_CHARACTERS * 4))
    .slice(0, KEPT_RESPONSE_CHARACTERS);
}

/** A failure without an answer, in words an operator reads (never the payload or a secret). */
function describeFailure(error: unknown, timeoutMs: number): string {
  const failure = error as {
    name?: string;
    code?: string;
    message?: string;
    cause?: { code?: string; message?: string };
  };
  if (
    failure.name === 'TimeoutError' ||
    failure.name === 'AbortError' ||
    error instanceof undiciErrors.HeadersTimeoutError ||
    error instanceof undiciErrors.BodyTimeoutError ||
    error instanceof undiciErrors.ConnectTimeoutError
  ) {
    return `no answer within ${timeoutMs} ms`;
  }
  const code = failure.code ?? failure.cause?.code;
  if (code === 'EWEBHOOKTARGET') return failure.message ?? 'the address is not allowed';
  if (code === 'ECONNREFUSED') return 'connection refused';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'the host name does not resolve';
  if (code === 'UND_ERR_SOCKET' || code === 'ECONNRESET' || code === 'EPIPE')
    return 'the connection was closed before an answer';
  return `${code ?? failure.name ?? 'error'}: ${failure.message ?? String(error)}`.slice(0, 300);
}

function recordOutcome(span: Span, outcome: PostOutcome): void {
  if (outcome.statusCode !== null) span.setAttribute('http.response.status_code', outcome.statusCode);
  if (outcome.error === null) return;
  markFailed(span, undefined, { 'error.type': outcome.statusCode === null ? 'no answer' : String(outcome.statusCode) });
}
