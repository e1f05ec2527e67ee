import type { Dispatcher } from 'undici';
import { ContextValue } from '../domain/context-value';
import { PassThroughHandler } from './bank-dispatcher-support';

// When a call the budget started reaches the bank: undici writes its request once a connection is free and open,
// which for a new TLS connection is 100 ms or more after the call started. The budget counts a call's place in
// the rate's window from then (BankCallBudget), or the bank would see the first calls of a fresh pool land
// together with the next ones. The budget runs each call inside runBankCall; the interceptor, composed onto the
// bank's dispatcher, tells that call's callback when undici writes a request it made.

// The callback rides in giro's one call context (ContextValue): OpenTelemetry's where a tracing SDK is registered.
const sentOfCall = new ContextValue<() => void>('giro bank call sent');

/** Runs `call`, telling `sent` each time a request it makes through the bank's dispatcher is written. */
export function runBankCall<T>(sent: () => void, call: () => Promise<T>): Promise<T> {
  return sentOfCall.runWith(sent, call);
}

/** The undici interceptor (not a Nest one) that tells a runBankCall its request is being written to the bank. */
export function sentInterceptor(): Dispatcher.DispatcherComposeInterceptor {
  return (dispatch) => (options, handler) => {
    const sent = sentOfCall.current();
    return dispatch(options, sent === undefined ? handler : new SentWatcher(handler, sent));
  };
}

/** Passes everything through to `handler`, calling `sent` when undici starts writing the request. */
class SentWatcher extends PassThroughHandler {
  constructor(
    handler: Dispatcher.DispatchHandler,
    private readonly sent: () => void,
  ) {
    super(handler);
  }

  override onRequestStart(controller: Dispatcher.DispatchController, context: unknown): void {
    this.sent();
    super.onRequestStart(controller, context);
  }
}
