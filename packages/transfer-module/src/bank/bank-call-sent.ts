import { AsyncLocalStorage } from 'node:async_hooks';
import type { Dispatcher } from 'undici';

// When a call the budget started reaches the bank: undici writes its request once a connection is free and open,
// which for a new TLS connection is 100 ms or more after the call started. The budget counts a call's place in
// the rate's window from then (BankCallBudget), or the bank would see the first calls of a fresh pool land
// together with the next ones. The budget runs each call inside runBankCall; the interceptor, composed onto the
// bank's dispatcher, tells that call's callback when undici writes a request it made.

const sentOfCall = new AsyncLocalStorage<() => void>();

/** Runs `call`, telling `sent` each time a request it makes through the bank's dispatcher is written. */
export function runBankCall<T>(sent: () => void, call: () => Promise<T>): Promise<T> {
  return sentOfCall.run(sent, call);
}

/** The undici interceptor (not a Nest one) that tells a runBankCall its request is being written to the bank. */
export function sentInterceptor(): Dispatcher.DispatcherComposeInterceptor {
  return (dispatch) => (options, handler) => {
    const sent = sentOfCall.getStore();
    return dispatch(options, sent === undefined ? handler : new SentWatcher(handler, sent));
  };
}

/** Passes everything through to `handler`, calling `sent` when undici starts writing the request. */
class SentWatcher implements Dispatcher.DispatchHandler {
  constructor(
    private readonly handler: Dispatcher.DispatchHandler,
    private readonly sent: () => void,
  ) {}

  onRequestStart(controller: Dispatcher.DispatchController, context: unknown): void {
    this.sent();
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
