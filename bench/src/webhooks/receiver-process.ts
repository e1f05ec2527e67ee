import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

// The receiver of the webhook benchmark, a process of its own (`node receiver-process.js`): a tiny HTTP server
// that answers every POST 204 at once, and records when each event arrived, with its transfer's originId and the
// payload's `timestamp` (the time of the change that wrote it, taken before its transaction; one machine, one
// clock): the bench splits each lag at the event's commit, which it knows. `GET /__report` gives what arrived
// since the last report and starts over. Prints `{"event":"webhook-receiver-ready","url":…}`.

let received = 0;
let ids = new Set<string>();
/** [originId, arrived at, the change's time] per event about a transfer (lag-split.ts's Arrival). */
let arrivals: [number, number, number][] = [];
let firstAtMs: number | null = null;
let lastAtMs: number | null = null;

const server = createServer((request, response) => {
  if (request.method === 'GET' && request.url === '/__report') {
    const report = { received, unique: ids.size, arrivals, firstAtMs, lastAtMs };
    received = 0;
    ids = new Set();
    arrivals = [];
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
    const { timestamp, data } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
      timestamp: string;
      data: { originId?: number };
    };
    if (data.originId !== undefined) arrivals.push([data.originId, now, Date.parse(timestamp)]);
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  process.stdout.write(`${JSON.stringify({ event: 'webhook-receiver-ready', url: `http://127.0.0.1:${port}` })}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
