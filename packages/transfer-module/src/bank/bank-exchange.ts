import type { Dispatcher } from 'undici';

export interface ExchangeRequest {
  origin: string;
  /** Path with query string, as it goes on the request line. */
  path: string;
  headers: Record<string, string>;
  body: Buffer;
}

export type ResponseHeaders = Record<string, string | string[] | undefined>;

export interface ExchangeResponse {
  status: number;
  headers: ResponseHeaders;
  /** At most `maxBodyBytes`; when the answer was longer, the rest was not read and `truncated` is true. */
  body: Buffer;
  truncated: boolean;
}

/**
 * The request failed without an answer. `requestStarted` says whether undici had begun writing it to a
 * connection: before that (DNS, refused, connect timeout, TLS handshake, token or signing failure)
 * nothing left this process.
 */
export class ExchangeFailure extends Error {
  constructor(
    readonly reason: Error,
    readonly requestStarted: boolean,
  ) {
    super(reason.message);
    this.name = 'ExchangeFailure';
  }
}

class ResponseTooLarge extends Error {}

/**
 * One POST through `dispatcher`, answered with a bounded body. Not a retrying call: a POST is written at
 * most once (`idempotent: false` also keeps undici from pipelining it behind another request). `onWritten` is
 * told when undici starts writing the request to a connection (the handler's request start, which every
 * interceptor passes on).
 */
export function exchange(
  dispatcher: Dispatcher,
  request: ExchangeRequest,
  maxBodyBytes: number,
  onWritten?: () => void,
): Promise<ExchangeResponse> {
  return new Promise((resolve, reject) => {
    let requestStarted = false;
    let status = 0;
    let headers: ResponseHeaders = {};
    const chunks: Buffer[] = [];
    let received = 0;
    let truncated = false;
    const answer = () => resolve({ status, headers, body: Buffer.concat(chunks), truncated });

    const handler: Dispatcher.DispatchHandler = {
      onRequestStart() {
        requestStarted = true;
        onWritten?.();
      },
      onResponseStart(_controller, statusCode, responseHeaders) {
        status = statusCode;
        headers = responseHeaders;
      },
      onResponseData(controller, chunk) {
        const room = maxBodyBytes - received;
        if (chunk.length > room) {
          chunks.push(chunk.subarray(0, room));
          received = maxBodyBytes;
          truncated = true;
          controller.abort(new ResponseTooLarge());
          return;
        }
        chunks.push(chunk);
        received += chunk.length;
      },
      onResponseEnd: answer,
      onResponseError(_controller, error) {
        if (truncated && error instanceof ResponseTooLarge) answer();
        else reject(new ExchangeFailure(error, requestStarted));
      },
    };

    try {
      dispatcher.dispatch(
        {
          origin: request.origin,
          path: request.path,
          method: 'POST',
          headers: request.headers,
          body: request.body,
          idempotent: false,
        },
        handler,
      );
    } catch (error) {
      reject(new ExchangeFailure(error as Error, requestStarted));
    }
  });
}
