import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

// The receiver of the webhook benchmark, a process of its own (`node receiver-process.js`): a tiny HTTP server
// that answers every POST 204 at once, and records when each event arrived against when it was committed (the
// payload's `timestamp`, the time of the change that wrote it; one machine, one clock). `GET /__report` gives
// what arrived since the last report and starts over. Prints `{"event":"webhook-receiver-ready","url":…}`.

let received = 0;
let ids = new Set<string>();
let lagsMs: number[] = [];
let firstAtMs: number | null = null;
let lastAtMs: number | null = null;

const server = createServer((request, response) => {
  if (request.method === 'GET' && request.url === '/__report') {
    const report = { received, unique: ids.size, lagsMs, firstAtMs, lastAtMs };
    received = 0;
    ids = new Set();
    lagsMs = [];
    firstAtMs = null;
    lastAtMs = null;
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(report));
    return;
  }
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    const now = Date.now();
    response.writeHead(204).end();
    received += 1;
    ids.add(String(request.headers['webhook-id']));
    firstAtMs ??= now;
    lastAtMs = now;
    const { timestamp } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { timestamp: string };
    lagsMs.push(now - Date.parse(timestamp));
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  process.stdout.write(`${JSON.stringify({ event: 'webhook-receiver-ready', url: `http://127.0.0.1:${port}` })}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
