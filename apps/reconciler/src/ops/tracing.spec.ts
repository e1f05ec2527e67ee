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

/** A local OTLP/HTTP receiver taking JSON: the path of each request and the names of the spans exported. */
async function startReceiver(): Promise<{ server: Server; url: string; paths: string[]; spanNames: string[] }> {
  const paths: string[] = [];
  const spanNames: string[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      paths.push(String(request.url));
      if (request.url === '/v1/traces') {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
          resourceSpans: { scopeSpans: { spans: { name: string }[] }[] }[];
        };
        for (const resource of body.resourceSpans)
          for (const scope of resource.scopeSpans) spanNames.push(...scope.spans.map(({ name }) => name));
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, paths, spanNames };
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
  });
});
