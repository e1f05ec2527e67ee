// Test support for the bank client's specs: a real HTTPS server that requires a client certificate.
// Not exported from the package barrel.
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';

export interface RecordedRequest {
  method: string;
  /** Path with query string, exactly as on the request line. */
  path: string;
  headers: IncomingHttpHeaders;
  /** The raw body bytes as received. */
  body: Buffer;
  /** Common name of the client certificate presented. */
  clientCommonName?: string;
}

export type Responder = (request: RecordedRequest, response: ServerResponse) => void | Promise<void>;

export interface MtlsTestServer {
  url: string;
  port: number;
  /** Every request that reached the HTTP layer, in order. */
  requests: RecordedRequest[];
  respond(responder: Responder): void;
  close(): Promise<void>;
}

export interface ServerTls {
  /** CA that client certificates must chain to. */
  ca: string;
  cert: string;
  key: string;
}

export async function startMtlsTestServer(tls: ServerTls, responder: Responder = notFound): Promise<MtlsTestServer> {
  let current = responder;
  const requests: RecordedRequest[] = [];
  const server: Server = createServer(
    { ca: tls.ca, cert: tls.cert, key: tls.key, requestCert: true, rejectUnauthorized: true },
    (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const peer = (req.socket as TLSSocket).getPeerCertificate();
        const recorded: RecordedRequest = {
          method: req.method ?? '',
          path: req.url ?? '',
          headers: req.headers,
          body: Buffer.concat(chunks),
          ...(peer?.subject?.CN && { clientCommonName: String(peer.subject.CN) }),
        };
        requests.push(recorded);
        Promise.resolve(current(recorded, res)).catch((error) => {
          res.destroy(error as Error);
        });
      });
    },
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://127.0.0.1:${port}`,
    port,
    requests,
    respond(next) {
      current = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function sendJson(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(text);
}

function notFound(_request: RecordedRequest, response: ServerResponse): void {
  sendJson(response, 404, { code: 'NOT_FOUND', message: 'no route' });
}
