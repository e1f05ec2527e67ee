import { context, propagation, trace } from '@opentelemetry/api';
import { httpClientAttributes, inSpan } from './tracing';

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

describe('httpClientAttributes', () => {
  it('name the server and the URL without credentials, query or fragment', () => {
    expect(httpClientAttributes('https://user:pw@bank.example:8443/api/movements?access_token=abc#x')).toEqual({
      'http.request.method': 'POST',
      'server.address': 'bank.example',
      'server.port': 8443,
      'url.full': 'https://bank.example:8443/api/movements',
    });
    expect(httpClientAttributes('http://127.0.0.1/hook')).toMatchObject({ 'server.port': 80 });
    expect(httpClientAttributes('not a url')).toEqual({ 'http.request.method': 'POST' });
  });
});
