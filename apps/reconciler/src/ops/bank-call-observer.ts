import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { performance } from 'node:perf_hooks';

export type BankCallOperation = 'create-transfer-request' | 'get-movement' | 'token' | 'other';

/** One finished exchange with the bank: latency to the answer's headers, or to the failure. */
export interface BankCall {
  operation: BankCallOperation;
  /** The HTTP status (`200`, `409`, `503`…), or `error` when no answer came (timeout, reset, refused, TLS). */
  outcome: string;
  seconds: number;
}

interface UndiciRequest {
  origin?: unknown;
  path?: unknown;
}

const CREATE = 'undici:request:create';
const HEADERS = 'undici:request:headers';
const ERROR = 'undici:request:error';

/**
 * Watches the HTTP exchanges with the bank through undici's diagnostics channels, the library's own
 * instrumentation hook: the module's bank client stays untouched, and every exchange is seen as it happens
 * on the wire (a call retried after a 401 counts twice). Only requests to `bankOrigin` are reported.
 */
export class BankCallObserver {
  private readonly bankOrigin: string;
  private readonly started = new WeakMap<object, number>();

  constructor(
    bankBaseUrl: string,
    private readonly report: (call: BankCall) => void,
  ) {
    this.bankOrigin = new URL(bankBaseUrl).origin;
  }

  start(): void {
    subscribe(CREATE, this.onCreate);
    subscribe(HEADERS, this.onHeaders);
    subscribe(ERROR, this.onError);
  }

  stop(): void {
    unsubscribe(CREATE, this.onCreate);
    unsubscribe(HEADERS, this.onHeaders);
    unsubscribe(ERROR, this.onError);
  }

  private readonly onCreate = (message: unknown): void => {
    const request = (message as { request: UndiciRequest }).request;
    if (originOf(request) === this.bankOrigin) this.started.set(request, performance.now());
  };

  private readonly onHeaders = (message: unknown): void => {
    const { request, response } = message as { request: UndiciRequest; response: { statusCode: number } };
    this.finish(request, String(response.statusCode));
  };

  private readonly onError = (message: unknown): void => {
    this.finish((message as { request: UndiciRequest }).request, 'error');
  };

  /** The first ending counts: an error while reading the body of an answer already counted is not a second call. */
  private finish(request: UndiciRequest, outcome: string): void {
    const startedAt = this.started.get(request);
    if (startedAt === undefined) return;
    this.started.delete(request);
    this.report({ operation: operationOf(request.path), outcome, seconds: (performance.now() - startedAt) / 1000 });
  }
}

function originOf(request: UndiciRequest): string | undefined {
  try {
    return new URL(String(request.origin)).origin;
  } catch {
    return undefined;
  }
}

function operationOf(path: unknown): BankCallOperation {
  const pathname = String(path).split('?')[0] ?? '';
  if (pathname.endsWith('/movements/transfer-request')) return 'create-transfer-request';
  if (pathname.endsWith('/movements/get-movement')) return 'get-movement';
  if (pathname.endsWith('/token')) return 'token';
  return 'other';
}
