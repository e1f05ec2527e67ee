import { type Attributes, type Span, type SpanOptions, SpanStatusCode, trace } from '@opentelemetry/api';

/**
 * giro's spans go through `@opentelemetry/api` alone: with no SDK registered (a host that does not trace) the API
 * hands out non-recording spans, so tracing costs a few calls and records nothing. The tracer is a proxy: an SDK
 * registered after this module is loaded (the reconciler's) is used from then on.
 */
export const giroTracer = trace.getTracer('@giro/transfer-module');

/**
 * Runs `work` inside a new active span (its child spans and the bank calls it makes nest under it) and ends the
 * span when the work settles. A failure marks the span an error with the error's name as `error.type`; its message
 * is left out, since a bank's answer quoted in one is not something to ship to a collector.
 */
export function inSpan<T>(name: string, options: SpanOptions, work: (span: Span) => Promise<T>): Promise<T> {
  return giroTracer.startActiveSpan(name, options, async (span) => {
    try {
      return await work(span);
    } catch (error) {
      markFailed(span, error);
      throw error;
    } finally {
      span.end();
    }
  });
}

/** Marks `span` failed with the error's code (a GiroError's) or name as `error.type`. */
export function markFailed(span: Span, error: unknown, more: Attributes = {}): void {
  const code = (error as { code?: unknown } | null)?.code;
  const type = typeof code === 'string' ? code : error instanceof Error ? error.name : 'unknown';
  span.setAttributes({ 'error.type': type, ...more });
  span.setStatus({ code: SpanStatusCode.ERROR });
}

/**
 * The HTTP client attributes of a POST to `url` (OpenTelemetry's semantic conventions): the method, the server's
 * address and port, and the URL without its query or fragment, where a secret could sit. None for a URL that does
 * not parse (the call then fails on its own).
 */
export function httpClientAttributes(url: string): Attributes {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { 'http.request.method': 'POST' };
  }
  return {
    'http.request.method': 'POST',
    'server.address': parsed.hostname,
    'server.port': Number(parsed.port || (parsed.protocol === 'https:' ? 443 : 80)),
    'url.full': `${parsed.origin}${parsed.pathname}`,
  };
}
