import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type SandboxBank, startSandboxBank } from '@giro/sandbox-bank';
import { ADMIN_TOKEN, testCertificates, transferRequest } from './support/reconciler-harness';
import {
  bankEnvironment,
  killIfRunning,
  RECONCILER_HOOK_MS,
  type ReconcilerProcess,
  startReconcilerProcess,
} from './support/reconciler-process';
import { waitUntil } from './support/wait-until';

// The reconciler's command with OTEL_EXPORTER_OTLP_ENDPOINT set (the swc build, a real child process) exports its
// spans over OTLP http/json to a receiver of this test's: an admin request sent with a `traceparent` continues that
// trace down to the bank call it caused, and on to the webhook delivery of the transfer's creation; the bank call's
// span carries the HTTP client attributes and no secret.

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  boolValue?: boolean;
}
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes?: { key: string; value: OtlpValue }[];
}
interface OtlpExport {
  resourceSpans: { scopeSpans: { spans: OtlpSpan[] }[] }[];
}

const SPAN_KIND_SERVER = 2;
const SPAN_KIND_CLIENT = 3;
const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const CALLER_SPAN_ID = '00f067aa0ba902b7';

function attribute(span: OtlpSpan, key: string): string | number | boolean | undefined {
  const value = span.attributes?.find((entry) => entry.key === key)?.value;
  if (value === undefined) return undefined;
  if (value.intValue !== undefined) return Number(value.intValue);
  return value.stringValue ?? value.boolValue;
}

/** An OTLP/HTTP receiver that accepts JSON exports on /v1/traces and keeps their spans. */
async function startOtlpReceiver(): Promise<{ server: Server; url: string; spans: OtlpSpan[]; paths: string[] }> {
  const spans: OtlpSpan[] = [];
  const paths: string[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      paths.push(`${request.method} ${request.url} ${request.headers['content-type']}`);
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as OtlpExport;
      for (const resource of body.resourceSpans) for (const scope of resource.scopeSpans) spans.push(...scope.spans);
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, spans, paths };
}

/** A webhook receiver that keeps each request's `traceparent`. */
async function startTraceparentReceiver(): Promise<{ server: Server; url: string; traceparents: string[] }> {
  const traceparents: string[] = [];
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      traceparents.push(String(request.headers.traceparent));
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/giro`, traceparents };
}

describe('the reconciler process exporting traces over OTLP http/json', () => {
  let dir: string;
  let bank: SandboxBank;
  let receiver: Awaited<ReturnType<typeof startOtlpReceiver>>;
  let webhooks: Awaited<ReturnType<typeof startTraceparentReceiver>>;
  let reconciler: ReconcilerProcess | undefined;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'giro-reconciler-tracing-'));
    const certs = await testCertificates();
    bank = await startSandboxBank({
      tls: { cert: certs.server.cert, key: certs.server.key, ca: certs.ca.cert },
      config: { polling: { minIntervalMs: 300, delayedMinIntervalMs: 1_500 } },
    });
    receiver = await startOtlpReceiver();
    webhooks = await startTraceparentReceiver();
    reconciler = await startReconcilerProcess(dir, {
      ...bankEnvironment(dir, certs, bank.url),
      DATABASE_URL: `sqlite:${join(dir, 'giro.sqlite')}`,
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_SERVICE_NAME: 'giro-tracing-e2e',
      // Exported a tenth of a second after they end, not five seconds.
      OTEL_BSP_SCHEDULE_DELAY: '100',
      WEBHOOK_URL: webhooks.url,
      WEBHOOK_SECRET: `whsec_${Buffer.alloc(32, 3).toString('base64')}`,
      WEBHOOK_EVENT_TYPES: 'transfer.created',
      WEBHOOK_ALLOW_LOOPBACK: 'true',
    });
  }, RECONCILER_HOOK_MS);
  afterEach(async () => {
    await killIfRunning([reconciler]);
    await bank.close();
    await new Promise((resolve) => receiver.server.close(resolve));
    await new Promise((resolve) => webhooks.server.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  });

  it('continues an incoming traceparent from the admin request through the creation to the bank call and the webhook', async () => {
    const response = await fetch(`${reconciler?.url}/admin/transfers`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${ADMIN_TOKEN}`,
        'content-type': 'application/json',
        traceparent: `00-${TRACE_ID}-${CALLER_SPAN_ID}-01`,
      },
      body: JSON.stringify(transferRequest({ originId: 8_101 })),
    });
    expect(response.status).toBe(201);

    const inTrace = () => receiver.spans.filter((span) => span.traceId === TRACE_ID);
    const bankCall = () =>
      inTrace().find(
        (span) =>
          span.kind === SPAN_KIND_CLIENT && attribute(span, 'giro.bank.operation') === 'create-transfer-request',
      );
    /** A span and its exported ancestors, nearest first. */
    const ancestry = (start: OtlpSpan | undefined): OtlpSpan[] => {
      const byId = new Map(inTrace().map((span) => [span.spanId, span]));
      const chain: OtlpSpan[] = [];
      for (let span = start; span !== undefined; span = byId.get(span.parentSpanId ?? '')) chain.push(span);
      return chain;
    };
    // The spans are exported in batches as they end: the admin request's, ended last, may come in a later one.
    const reachesCaller = (chain: OtlpSpan[]) => chain.at(-1)?.parentSpanId === CALLER_SPAN_ID;
    await waitUntil(
      () => reachesCaller(ancestry(bankCall())),
      20_000,
      () => receiver.paths,
    );

    const chain = ancestry(bankCall());
    expect(chain.map(({ name }) => name)).toEqual(['POST', 'giro transfer create', 'POST /admin/transfers']);
    const [call, creation, request] = chain;
    expect(request).toMatchObject({ kind: SPAN_KIND_SERVER, parentSpanId: CALLER_SPAN_ID });
    expect(attribute(request, 'http.response.status_code')).toBe(201);
    expect(attribute(creation, 'giro.origin_id')).toBe(8_101);

    const bankUrl = new URL(bank.url);
    expect(attribute(call, 'http.request.method')).toBe('POST');
    expect(attribute(call, 'server.address')).toBe(bankUrl.hostname);
    expect(attribute(call, 'server.port')).toBe(Number(bankUrl.port));
    expect(String(attribute(call, 'url.full'))).toMatch(new RegExp(`^${bank.url}/[^?]*$`));
    expect(attribute(call, 'http.response.status_code')).toBe(200);
    const exported = JSON.stringify(receiver.spans);
    for (const secret of ['sandbox-token', 'sandbox-hmac-secret', ADMIN_TOKEN]) expect(exported).not.toContain(secret);
    expect(receiver.paths.every((path) => path.startsWith('POST /v1/traces application/json'))).toBe(true);

    // The transfer.created delivery continues the trace of the request that created the transfer (its context was
    // stored with the event), and hands it on to the receiver as the delivery span's traceparent.
    const delivery = () =>
      inTrace().find(
        (span) => span.kind === SPAN_KIND_CLIENT && attribute(span, 'giro.webhook.event_id') !== undefined,
      );
    await waitUntil(
      () => webhooks.traceparents.length > 0 && reachesCaller(ancestry(delivery())),
      20_000,
      () => webhooks.traceparents,
    );
    const deliverySpan = delivery() as OtlpSpan;
    expect(webhooks.traceparents[0]).toBe(`00-${TRACE_ID}-${deliverySpan.spanId}-01`);
    expect(attribute(deliverySpan, 'http.response.status_code')).toBe(204);
    const ancestors = ancestry(deliverySpan)
      .slice(1)
      .map(({ name }) => name);
    expect(ancestors).toEqual(['giro transfer create', 'POST /admin/transfers']);

    expect(await reconciler?.stop()).toEqual({ code: 0, signal: null });
  });
});
