import type { IncomingMessage, Server, ServerResponse } from 'node:http';

/**
 * How long a client has to send a request: its headers within HEADERS_TIMEOUT_MS, all of it (a body of at most
 * 16 KiB) within REQUEST_TIMEOUT_MS, or the server answers 408 and closes the connection. Node's defaults (60 s
 * and 300 s) let a client trickling a body hold a connection for five minutes. Answering may take longer (a sweep
 * run by `POST /admin/reconcile`): these bound receiving the request only. An upload (UPLOAD_ROUTES) has the
 * allowance of UploadLimits instead.
 */
export const SERVER_TIMEOUTS = {
  headersTimeoutMs: 5_000,
  requestTimeoutMs: 10_000,
  /** An idle keep-alive connection is closed after this (Node's default): a proxy in front keeps its own shorter. */
  keepAliveTimeoutMs: 5_000,
  /** How often Node checks connections against the two timeouts above (its default, 30 s, would add up to that). */
  checkIntervalMs: 1_000,
} as const;

/** The routes whose body is a file that may take longer than REQUEST_TIMEOUT_MS to arrive (`METHOD /path`). */
export const UPLOAD_ROUTES = ['POST /admin/statements', 'POST /admin/transfers/batch'];

/**
 * An upload's allowance (UPLOAD_TIMEOUT_MS, UPLOAD_MIN_BYTES_PER_SECOND): all of it within `timeoutMs`, and past
 * its first REQUEST_TIMEOUT_MS at least `minBytesPerSecond` over the last REQUEST_TIMEOUT_MS — a slow but steady
 * upload goes on, a trickle (or a stall) is cut as any request past its time.
 */
export interface UploadLimits {
  timeoutMs: number;
  minBytesPerSecond: number;
}

/** What Node answers a request it timed out: no body, and the connection closed. */
const TIMED_OUT = 'HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n';

/**
 * Applies SERVER_TIMEOUTS and the uploads' allowance to `server`; call it before `listen`, where Node starts its
 * checks. Node's own request timeout is the uploads' (the longest any request may take to arrive); each request's
 * own rule is checked here, every `checkIntervalMs`, until its body has arrived.
 */
export function applyServerTimeouts(server: Server, uploads: UploadLimits): void {
  server.headersTimeout = SERVER_TIMEOUTS.headersTimeoutMs;
  server.requestTimeout = Math.max(uploads.timeoutMs, SERVER_TIMEOUTS.requestTimeoutMs);
  server.keepAliveTimeout = SERVER_TIMEOUTS.keepAliveTimeoutMs;
  // The option of http.createServer, which Nest creates without options; Node reads it when the server listens.
  (server as Server & { connectionsCheckingInterval: number }).connectionsCheckingInterval =
    SERVER_TIMEOUTS.checkIntervalMs;
  server.on('request', (request: IncomingMessage, response: ServerResponse) =>
    watchArrival(request, response, uploads),
  );
}

function watchArrival(request: IncomingMessage, response: ServerResponse, uploads: UploadLimits): void {
  if (request.complete) return;
  const socket = request.socket;
  const window = SERVER_TIMEOUTS.requestTimeoutMs;
  const isUpload = UPLOAD_ROUTES.includes(`${request.method} ${(request.url ?? '').split('?')[0]}`);
  const startedAt = Date.now();
  // The bytes the connection had read at each check, the oldest first: what arrived over the last window.
  const readAt: { at: number; bytes: number }[] = [{ at: startedAt, bytes: socket.bytesRead }];
  const timer = setInterval(() => {
    if (request.complete || socket.destroyed) return clearInterval(timer);
    const now = Date.now();
    readAt.push({ at: now, bytes: socket.bytesRead });
    while (readAt.length > 1 && readAt[1].at <= now - window) readAt.shift();
    if (now - startedAt < window) return;
    const arrived = readAt[readAt.length - 1].bytes - readAt[0].bytes;
    const tooSlow = !isUpload || arrived < (uploads.minBytesPerSecond * (now - readAt[0].at)) / 1000;
    if (tooSlow) {
      clearInterval(timer);
      cut(response);
    }
  }, SERVER_TIMEOUTS.checkIntervalMs);
  timer.unref();
  request.once('end', () => clearInterval(timer));
  request.once('close', () => clearInterval(timer));
}

/** As Node answers a request past its time: 408 when nothing was answered yet, and the connection closed. */
function cut(response: ServerResponse): void {
  const socket = response.socket;
  if (socket === null) return;
  if (response.headersSent) {
    socket.destroy();
    return;
  }
  socket.end(TIMED_OUT, () => socket.destroy());
}
