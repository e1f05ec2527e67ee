import type { Server } from 'node:http';

/**
 * How long a client has to send a request: its headers within HEADERS_TIMEOUT_MS, all of it (a body of at most
 * 16 KiB) within REQUEST_TIMEOUT_MS, or the server answers 408 and closes the connection. Node's defaults (60 s
 * and 300 s) let a client trickling a body hold a connection for five minutes. Answering may take longer (a sweep
 * run by `POST /admin/reconcile`): these bound receiving the request only.
 */
export const SERVER_TIMEOUTS = {
  headersTimeoutMs: 5_000,
  requestTimeoutMs: 10_000,
  /** An idle keep-alive connection is closed after this (Node's default): a proxy in front keeps its own shorter. */
  keepAliveTimeoutMs: 5_000,
  /** How often Node checks connections against the two timeouts above (its default, 30 s, would add up to that). */
  checkIntervalMs: 1_000,
} as const;

/** Applies SERVER_TIMEOUTS to `server`; call it before `listen`, where Node starts its checks. */
export function applyServerTimeouts(server: Server): void {
  server.headersTimeout = SERVER_TIMEOUTS.headersTimeoutMs;
  server.requestTimeout = SERVER_TIMEOUTS.requestTimeoutMs;
  server.keepAliveTimeout = SERVER_TIMEOUTS.keepAliveTimeoutMs;
  // The option of http.createServer, which Nest creates without options; Node reads it when the server listens.
  (server as Server & { connectionsCheckingInterval: number }).connectionsCheckingInterval =
    SERVER_TIMEOUTS.checkIntervalMs;
}
