import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { Webhook } from 'standardwebhooks';

// A real webhook receiver for tests: an HTTP server on loopback whose every answer a test chooses (a status,
// hanging, closing the connection, an endless body), which records what arrived and when, and checks at the
// end what a host relies on: every event delivered, duplicates only with the same id (and the same body), in
// order per transfer, every signature verified with the standardwebhooks library.

/** How the receiver answers one request (chosen once its body has arrived). */
export type ReceiverAnswer =
  | { status: number; headers?: Record<string, string>; body?: string; delayMs?: number }
  /** Never answers (until the client gives up or the receiver stops). */
  | 'hang'
  /** Closes the connection without a byte of answer. */
  | 'close'
  /** Starts a 200 with a body of 1 000 bytes, sends part of it, then closes the connection. */
  | 'close-mid-answer'
  /** A 200 whose body is this many bytes, streamed as fast as the client reads it. */
  | { hugeBodyBytes: number };

export interface ReceivedRequest {
  /** Order of arrival (one counter with `answeredTick`: a tick orders arrivals and answers). */
  arrivedTick: number;
  arrivedAtMs: number;
  /** The tick at which a 2xx answer was started; undefined for any other outcome. */
  answeredTick?: number;
  id: string;
  headers: IncomingHttpHeaders;
  body: string;
  answer: ReceiverAnswer;
}

export interface WebhookReceiver {
  url: string;
  port: number;
  requests: ReceivedRequest[];
  /** Requests that arrived while another request with the same webhook-id was still open. */
  concurrentDuplicates: ReceivedRequest[];
  /** Bytes of answer bodies the receiver managed to write (a client that stops reading stops this). */
  bodyBytesWritten(): number;
  /** Stops listening and drops every connection: connections are refused until `up()`. */
  down(): Promise<void>;
  /** Listens again on the same port. */
  up(): Promise<void>;
  close(): Promise<void>;
}

export async function startWebhookReceiver(
  answer: (request: ReceivedRequest) => ReceiverAnswer = () => ({ status: 204 }),
): Promise<WebhookReceiver> {
  const requests: ReceivedRequest[] = [];
  const concurrentDuplicates: ReceivedRequest[] = [];
  const open = new Map<string, number>();
  const sockets = new Set<Socket>();
  let tick = 0;
  let written = 0;

  const server = createServer((request, response) => {
    const id = String(request.headers['webhook-id'] ?? '');
    const received: ReceivedRequest = {
      arrivedTick: ++tick,
      arrivedAtMs: Date.now(),
      id,
      headers: request.headers,
      body: '',
      answer: 'hang',
    };
    requests.push(received);
    if ((open.get(id) ?? 0) > 0) concurrentDuplicates.push(received);
    open.set(id, (open.get(id) ?? 0) + 1);
    response.on('close', () => open.set(id, (open.get(id) ?? 1) - 1));
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.body = Buffer.concat(chunks).toString('utf8');
      received.answer = answer(received);
      respond(received, response);
    });
  });
  server.keepAliveTimeout = 30_000;
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  function respond(received: ReceivedRequest, response: ServerResponse): void {
    const { answer } = received;
    if (answer === 'hang') return;
    if (answer === 'close') {
      response.socket?.destroy();
      return;
    }
    if (answer === 'close-mid-answer') {
      response.writeHead(200, { 'content-type': 'text/plain', 'content-length': '1000' });
      response.write('x'.repeat(100), () => setTimeout(() => response.socket?.destroy(), 10));
      return;
    }
    if ('hugeBodyBytes' in answer) {
      streamBody(response, answer.hugeBodyBytes);
      return;
    }
    const send = () => {
      if (response.destroyed) return;
      // Ticked before the answer leaves: the client can only see it after.
      if (answer.status >= 200 && answer.status < 300) received.answeredTick = ++tick;
      response.writeHead(answer.status, answer.headers);
      response.end(answer.body);
    };
    if (answer.delayMs) setTimeout(send, answer.delayMs);
    else send();
  }

  function streamBody(response: ServerResponse, total: number): void {
    response.writeHead(200, { 'content-type': 'text/plain', 'content-length': String(total) });
    const chunk = Buffer.alloc(64 * 1024, 'y');
    let left = total;
    const pump = () => {
      while (left > 0 && !response.destroyed) {
        const piece = left >= chunk.length ? chunk : chunk.subarray(0, left);
        left -= piece.length;
        written += piece.length;
        if (!response.write(piece)) {
          response.once('drain', pump);
          return;
        }
      }
      if (left === 0) response.end();
    };
    response.on('error', () => {});
    pump();
  }

  const listen = (port: number) =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
  const down = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      for (const socket of sockets) socket.destroy();
    });

  await listen(0);
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    port,
    requests,
    concurrentDuplicates,
    bodyBytesWritten: () => written,
    down,
    up: () => listen(port),
    close: () => (server.listening ? down() : Promise.resolve()),
  };
}

/** A delivery as the store or WebhookService lists it (what the checks need). */
export interface ListedDelivery {
  id: number;
  eventId: string;
  originId: number | null;
  state: string;
}

/**
 * What a host relies on, checked on what arrived: returns the problems found (empty when none). `deliveries`
 * are every delivery of the receiver's endpoint; ids ascending are the order the events were written.
 */
export function deliveryProblems(
  requests: readonly ReceivedRequest[],
  deliveries: readonly ListedDelivery[],
  secrets: readonly string[],
): string[] {
  const problems: string[] = [];
  const verifiers = secrets.map((secret) => new Webhook(secret));
  const known = new Map(deliveries.map((delivery) => [delivery.eventId, delivery]));
  const bodies = new Map<string, string>();
  const firstSuccess = new Map<string, number>();
  for (const request of requests) {
    const verified = verifiers.some((verifier) => {
      try {
        verifier.verify(request.body, request.headers as Record<string, string>);
        return true;
      } catch {
        return false;
      }
    });
    if (!verified) problems.push(`request ${request.arrivedTick} (${request.id}): signature not verified`);
    if (!known.has(request.id)) problems.push(`request ${request.arrivedTick}: unknown webhook-id ${request.id}`);
    const body = bodies.get(request.id);
    if (body !== undefined && body !== request.body) problems.push(`${request.id}: a duplicate with another body`);
    bodies.set(request.id, request.body);
    if (request.answeredTick !== undefined && !firstSuccess.has(request.id)) {
      firstSuccess.set(request.id, request.answeredTick);
    }
  }
  for (const delivery of deliveries) {
    if (delivery.state !== 'delivered') problems.push(`delivery ${delivery.id} is ${delivery.state}`);
    if (!firstSuccess.has(delivery.eventId)) problems.push(`event ${delivery.eventId} never answered 2xx`);
  }
  // In order per transfer: no attempt of an event arrives before the first 2xx of every earlier event of its
  // transfer was written.
  const byTransfer = new Map<number, ListedDelivery[]>();
  for (const delivery of deliveries) {
    if (delivery.originId === null) continue;
    byTransfer.set(delivery.originId, [...(byTransfer.get(delivery.originId) ?? []), delivery]);
  }
  for (const [originId, list] of byTransfer) {
    const ordered = [...list].sort((a, b) => a.id - b.id);
    const position = new Map(ordered.map((delivery, index) => [delivery.eventId, index]));
    for (const request of requests) {
      const index = position.get(request.id);
      if (index === undefined) continue;
      for (const earlier of ordered.slice(0, index)) {
        const answered = firstSuccess.get(earlier.eventId);
        if (answered === undefined || answered > request.arrivedTick) {
          problems.push(`transfer ${originId}: ${request.id} arrived before ${earlier.eventId} was delivered`);
        }
      }
    }
  }
  return problems;
}
