import type { Dispatcher } from 'undici';

// Shared by the undici dispatcher interceptors composed onto the bank's dispatcher (`bank-dispatcher-auth.ts`,
// `bank-dispatcher-hmac.ts`).

type HeaderRecord = Record<string, string | string[]>;

/** The request's headers as a record, with `extra` set (replacing any same-named header, whatever its case). */
export function withHeaders(
  headers: Dispatcher.DispatchOptions['headers'],
  extra: Record<string, string>,
): HeaderRecord {
  const result: HeaderRecord = {};
  for (const [name, value] of headerEntries(headers)) {
    if (value !== undefined) result[name] = value;
  }
  for (const [name, value] of Object.entries(extra)) {
    for (const existing of Object.keys(result)) {
      if (existing.toLowerCase() === name.toLowerCase()) delete result[existing];
    }
    result[name] = value;
  }
  return result;
}

function headerEntries(
  headers: Dispatcher.DispatchOptions['headers'],
): Iterable<[string, string | string[] | undefined]> {
  if (headers == null) return [];
  if (Array.isArray(headers)) {
    // undici's flat form: [name, value, name, value, …]
    const pairs: [string, string][] = [];
    for (let i = 0; i + 1 < headers.length; i += 2) pairs.push([headers[i], headers[i + 1]]);
    return pairs;
  }
  if (Symbol.iterator in headers) return headers as Iterable<[string, string | string[] | undefined]>;
  return Object.entries(headers);
}

/** The request body as bytes, for signing. Only fixed bodies can be signed (ours always are). */
export function bodyBytes(body: Dispatcher.DispatchOptions['body']): Buffer {
  if (body == null) return Buffer.alloc(0);
  if (typeof body === 'string') return Buffer.from(body, 'utf8');
  if (body instanceof Uint8Array) return Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  throw new TypeError('only string or Buffer request bodies can be signed');
}

// Handed to a handler whose request failed before it was dispatched (no undici controller exists yet).
const notStartedController: Dispatcher.DispatchController = {
  aborted: false,
  paused: false,
  reason: null,
  abort: () => undefined,
  pause: () => undefined,
  resume: () => undefined,
};

/**
 * Runs `prepare` (a token fetch, an asynchronous signer), then dispatches the prepared request. When
 * `prepare` fails, the handler gets the error without `onRequestStart`: nothing was sent.
 */
export function dispatchAfter(
  prepare: () => Promise<Dispatcher.DispatchOptions>,
  dispatch: Dispatcher.Dispatch,
  handler: Dispatcher.DispatchHandler,
): true {
  prepare().then(
    (prepared) => {
      try {
        dispatch(prepared, handler);
      } catch (error) {
        handler.onResponseError?.(notStartedController, error as Error);
      }
    },
    (error: Error) => handler.onResponseError?.(notStartedController, error),
  );
  return true;
}

/** A handler that passes everything through to `handler`: an interceptor's watcher overrides what it watches. */
export class PassThroughHandler implements Dispatcher.DispatchHandler {
  constructor(protected readonly handler: Dispatcher.DispatchHandler) {}

  onRequestStart(controller: Dispatcher.DispatchController, context: unknown): void {
    this.handler.onRequestStart?.(controller, context);
  }

  onRequestUpgrade(...args: Parameters<NonNullable<Dispatcher.DispatchHandler['onRequestUpgrade']>>): void {
    this.handler.onRequestUpgrade?.(...args);
  }

  onResponseStart(...args: Parameters<NonNullable<Dispatcher.DispatchHandler['onResponseStart']>>): void {
    this.handler.onResponseStart?.(...args);
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    this.handler.onResponseData?.(controller, chunk);
  }

  onResponseEnd(...args: Parameters<NonNullable<Dispatcher.DispatchHandler['onResponseEnd']>>): void {
    this.handler.onResponseEnd?.(...args);
  }

  onResponseError(controller: Dispatcher.DispatchController, error: Error): void {
    this.handler.onResponseError?.(controller, error);
  }
}
