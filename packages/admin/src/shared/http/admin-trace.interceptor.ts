import type { IncomingMessage, ServerResponse } from 'node:http';
import { type CallHandler, type ExecutionContext, Injectable, type NestInterceptor } from '@nestjs/common';
import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { Observable } from 'rxjs';

/** Through `@opentelemetry/api` alone: without an SDK registered its spans record nothing. */
const tracer = trace.getTracer('@giro/admin');

/**
 * Every admin request that passed its guard as an HTTP server span, continuing the trace of an incoming
 * `traceparent` (W3C trace context), so that a host's request can be followed through giro to the bank. The handler
 * runs inside the span (subscribed in its context), so the transfer's creation and the bank call it makes are its
 * children. The span ends when the answer is sent, with its status code; no body, no query, no header is recorded.
 */
@Injectable()
export class AdminTraceInterceptor implements NestInterceptor {
  intercept(execution: ExecutionContext, next: CallHandler): Observable<unknown> {
    const http = execution.switchToHttp();
    const request = http.getRequest<IncomingMessage & { route?: { path?: unknown } }>();
    const response = http.getResponse<ServerResponse>();
    const method = request.method ?? 'GET';
    const route = typeof request.route?.path === 'string' ? request.route.path : undefined;
    const parent = propagation.extract(ROOT_CONTEXT, request.headers);
    const span = tracer.startSpan(
      route === undefined ? method : `${method} ${route}`,
      {
        kind: SpanKind.SERVER,
        attributes: {
          'http.request.method': method,
          'url.path': (request.url ?? '/').split('?')[0],
          ...(route !== undefined && { 'http.route': route }),
        },
      },
      parent,
    );
    response.once('close', () => {
      span.setAttribute('http.response.status_code', response.statusCode);
      if (response.statusCode >= 500) {
        span.setAttribute('error.type', String(response.statusCode));
        span.setStatus({ code: SpanStatusCode.ERROR });
      }
      span.end();
    });
    const active = trace.setSpan(parent, span);
    return new Observable((subscriber) => context.with(active, () => next.handle().subscribe(subscriber)));
  }
}
