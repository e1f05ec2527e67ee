import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { otlpSpanCount } from './otlp-span-count';

// The tracing bench's collector, a process of its own (`node otlp-receiver-process.js`) so that its work is not
// counted as giro's: an OTLP/HTTP receiver that answers every export on /v1/traces at once (protobuf or JSON, as
// asked) and counts the spans it received. `GET /__report` gives the count since the last report and starts
// over. Prints `{"event":"otlp-receiver-ready","url":…}`.

let spans = 0;
let exports = 0;
const protocols = new Set<string>();

const server = createServer((request, response) => {
  if (request.method === 'GET' && request.url === '/__report') {
    const report = { spans, exports, contentTypes: [...protocols] };
    spans = 0;
    exports = 0;
    protocols.clear();
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(report));
    return;
  }
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    if (request.method !== 'POST' || request.url !== '/v1/traces') {
      response.writeHead(404).end();
      return;
    }
    const contentType = request.headers['content-type'];
    spans += otlpSpanCount(Buffer.concat(chunks), contentType);
    exports += 1;
    protocols.add(String(contentType));
    // An empty ExportTraceServiceResponse: nothing rejected.
    if (contentType?.startsWith('application/json'))
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    else response.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  process.stdout.write(`${JSON.stringify({ event: 'otlp-receiver-ready', url: `http://127.0.0.1:${port}` })}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
