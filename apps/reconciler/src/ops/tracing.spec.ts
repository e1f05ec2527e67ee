import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';

// startTracing runs in a child process, from the build (apps/reconciler/dist, `pnpm build:js`): the OTLP exporter
// loads its HTTP agent with a dynamic import, which Jest's module sandbox does not run.

const DIST_TRACING = join(__dirname, '..', '..', 'dist', 'ops', 'tracing.js');

/** Starts tracing with `env`, ends one span and stops; says what was registered with the API meanwhile. */
const CHILD = `
const { startTracing } = require(${JSON.stringify(DIST_TRACING)});
const { metrics, trace } = require(require.resolve('@opentelemetry/api', { paths: [${JSON.stringify(__dirname)}] }));
(async () => {
  const meterProviderBefore = metrics.getMeterProvider();
  const stop = await startTracing(process.env);
  const span = trace.getTracer('spec').startSpan('giro spec span');
  const recording = span.isRecording();
  span.end();
  const meterProviderUnchanged = metrics.getMeterProvider() === meterProviderBefore;
  await stop?.();
  process.stdout.write(JSON.stringify({ started: stop !== undefined, recording, meterProviderUnchanged }));
})();
`;

async function traceInChild(
  env: Record<string, string>,
): Promise<{ started: boolean; recording: boolean; meterProviderUnchanged: boolean }> {
  const { stdout } = await promisify(execFile)(process.execPath, ['-e', CHILD], {
    env: { PATH: process.env.PATH ?? '', ...env },
  });
  return JSON.parse(stdout);
}

interface OtlpJson {
  resourceSpans: {
    resource: { attributes: { key: string; value: { stringValue?: string } }[] };
    scopeSpans: { spans: { name: string }[] }[];
  }[];
}

/** What a local OTLP/HTTP receiver got: each request's path, content type and `authorization` header. */
interface Received {
  paths: string[];
  contentTypes: string[];
  authorizations: (string | undefined)[];
  /** The names of the spans exported as JSON. */
  spanNames: string[];
  /** The resource's string attributes of the JSON exports. */
  resource: Record<string, string>;
}

async function startReceiver(): Promise<{ server: Server; url: string } & Received> {
  const received: Received = { paths: [], contentTypes: [], authorizations: [], spanNames: [], resource: {} };
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.paths.push(String(request.url));
      received.contentTypes.push(String(request.headers['content-type']));
      received.authorizations.push(request.headers.authorization);
      if (request.url === '/v1/traces' && request.headers['content-type'] === 'application/json') {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as OtlpJson;
        for (const { resource, scopeSpans } of body.resourceSpans) {
          for (const { key, value } of resource.attributes)
            if (value.stringValue !== undefined) received.resource[key] = value.stringValue;
          for (const scope of scopeSpans) received.spanNames.push(...scope.spans.map(({ name }) => name));
        }
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, ...received };
}

describe('startTracing', () => {
  let receiver: Awaited<ReturnType<typeof startReceiver>>;

  beforeEach(async () => {
    receiver = await startReceiver();
  });
  afterEach(async () => {
    await new Promise((resolve) => receiver.server.close(resolve));
  });

  it('starts nothing without an OTLP endpoint: spans stay non-recording', async () => {
    expect(await traceInChild({})).toEqual({ started: false, recording: false, meterProviderUnchanged: true });
  });

  it('exports traces, and only traces: no metrics reader or logs pipeline beside giro’s Prometheus metrics', async () => {
    const outcome = await traceInChild({
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
    });
    expect(outcome).toEqual({ started: true, recording: true, meterProviderUnchanged: true });
    expect(receiver.spanNames).toEqual(['giro spec span']);
    expect(new Set(receiver.paths)).toEqual(new Set(['/v1/traces']));
    expect(receiver.resource).toMatchObject({ 'service.name': 'giro-reconciler', 'telemetry.sdk.language': 'nodejs' });
    expect(receiver.resource['host.name']).toEqual(expect.any(String));
  });

  it('exports OTLP protobuf by default, with the standard variables’ headers, service name and resource', async () => {
    const outcome = await traceInChild({
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_EXPORTER_OTLP_HEADERS: 'authorization=Bearer collector-token',
    });
    expect(outcome).toMatchObject({ started: true, recording: true });
    expect(receiver.paths).toEqual(['/v1/traces']);
    expect(receiver.contentTypes).toEqual(['application/x-protobuf']);
    expect(receiver.authorizations).toEqual(['Bearer collector-token']);

    await traceInChild({
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${receiver.url}/v1/traces`,
      OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/json',
      OTEL_SERVICE_NAME: 'payments-giro',
      OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment=prod',
    });
    expect(receiver.contentTypes[1]).toBe('application/json');
    expect(receiver.resource).toMatchObject({ 'service.name': 'payments-giro', 'deployment.environment': 'prod' });
  });

  it('samples as OTEL_TRACES_SAMPLER says: a ratio of 0 records nothing', async () => {
    const outcome = await traceInChild({
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_TRACES_SAMPLER: 'traceidratio',
      OTEL_TRACES_SAMPLER_ARG: '0',
    });
    expect(outcome).toMatchObject({ started: true, recording: false });
    expect(receiver.paths).toEqual([]);
  });

  it('refuses a protocol it does not export over, naming the ones it does', async () => {
    await expect(
      traceInChild({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' }),
    ).rejects.toThrow(
      /OTEL_EXPORTER_OTLP_PROTOCOL=grpc is not supported: the reconciler exports traces over http\/protobuf or http\/json/,
    );
  });

  it('starts nothing when OTEL_SDK_DISABLED is true', async () => {
    expect(await traceInChild({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_SDK_DISABLED: 'true' })).toEqual({
      started: false,
      recording: false,
      meterProviderUnchanged: true,
    });
  });
});
