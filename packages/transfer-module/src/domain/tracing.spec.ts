import { context, propagation, trace } from '@opentelemetry/api';
import { inSpan } from './tracing';

// A host that registers no OpenTelemetry SDK pays for giro's spans with a few calls and nothing more: the API's
// no-op tracer records nothing, starts no trace and puts no `traceparent` on giro's outgoing requests.

describe('giro spans without an OpenTelemetry SDK registered', () => {
  it('are not recording, carry no trace and leave the result and the failure as they were', async () => {
    let seen: { recording: boolean; traceId: string; active: boolean } | undefined;
    const result = await inSpan('giro transfer create', {}, async (span) => {
      span.setAttribute('giro.origin_id', 7);
      seen = {
        recording: span.isRecording(),
        traceId: span.spanContext().traceId,
        active: trace.getActiveSpan()?.isRecording() ?? false,
      };
      return 'created';
    });
    expect(result).toBe('created');
    expect(seen).toEqual({ recording: false, traceId: '00000000000000000000000000000000', active: false });
    const failure = new Error('the bank refused');
    await expect(inSpan('POST', {}, () => Promise.reject(failure))).rejects.toBe(failure);
  });

  it('inject no traceparent into an outgoing request', async () => {
    const headers: Record<string, string> = {};
    await inSpan('POST', {}, async () => propagation.inject(context.active(), headers));
    expect(headers).toEqual({});
  });
});
