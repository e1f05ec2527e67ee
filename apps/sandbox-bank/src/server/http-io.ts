import type { IncomingMessage, ServerResponse } from 'node:http';

export interface JsonReply {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

/** The error shape of every sandbox answer that is not a movement: `{ code, message, ...extra }`. */
export function errorReply(status: number, code: string, message: string, extra: object = {}): JsonReply {
  return { status, body: { code, message, ...extra } };
}

export class BodyTooLargeError extends Error {
  constructor(readonly limitBytes: number) {
    super(`the request body is larger than ${limitBytes} bytes`);
  }
}

/** The raw request body, refused (BodyTooLargeError) as soon as it exceeds `limitBytes`. */
export function readBody(request: IncomingMessage, limitBytes: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    if (Number(request.headers['content-length']) > limitBytes) {
      reject(new BodyTooLargeError(limitBytes));
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limitBytes) {
        request.off('data', onData);
        request.resume();
        reject(new BodyTooLargeError(limitBytes));
      } else chunks.push(chunk);
    };
    request.on('data', onData);
    request.on('end', () => resolve(Buffer.concat(chunks, size)));
    request.on('error', reject);
  });
}

export function sendJson(response: ServerResponse, reply: JsonReply): void {
  sendText(response, reply.status, JSON.stringify(reply.body), reply.headers);
}

export function sendText(
  response: ServerResponse,
  status: number,
  text: string,
  headers: Record<string, string> = {},
): void {
  if (response.headersSent || response.destroyed) return;
  response.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  response.end(text);
}

export type ParsedJson = { ok: true; value: unknown } | { ok: false };

export function parseJson(raw: Buffer): ParsedJson {
  try {
    return { ok: true, value: JSON.parse(raw.toString('utf8')) };
  } catch {
    return { ok: false };
  }
}

/** The media type of a request, lower-cased, without parameters (`application/json; charset=utf-8` → `application/json`). */
export function mediaTypeOf(request: IncomingMessage): string {
  return (request.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
}
