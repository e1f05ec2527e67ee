import { AsyncLocalStorage } from 'node:async_hooks';
import { context, createContextKey, ROOT_CONTEXT } from '@opentelemetry/api';
import type { Dispatcher } from 'undici';
import { PassThroughHandler } from './bank-dispatcher-support';

// When a call the budget started reaches the bank: undici writes its request once a connection is free and open,
// which for a new TLS connection is 100 ms or more after the call started. The budget counts a call's place in
// the rate's window from then (BankCallBudget), or the bank would see the first calls of a fresh pool land
// together with the next ones. The budget runs each call inside runBankCall; the interceptor, composed onto the
// bank's dispatcher, tells that call's callback when undici writes a request it made.

//
// Where a tracing SDK is registered, the call's callback rides in OpenTelemetry's context rather than in an
// AsyncLocalStorage of giro's: Node runs every storage's hook on every promise created, so a second storage beside
// the SDK's context manager would cost each promise of the process again. Without an SDK, the API's context does
// not propagate and giro's own storage is used.

const sentOfCall = new AsyncLocalStorage<() => void>();
const SENT_KEY = createContextKey('giro bank call sent');
const PROBE_KEY = createContextKey('giro context propagation probe');
/** Once seen, a registered context manager stays (the API has no unregistering short of `context.disable()`). */
let contextPropagates = false;

/** Runs `call`, telling `sent` each time a request it makes through the bank's dispatcher is written. */
export function runBankCall<T>(sent: () => void, call: () => Promise<T>): Promise<T> {
  if (otelContextPropagates()) return context.with(context.active().setValue(SENT_KEY, sent), call);
  return sentOfCall.run(sent, call);
}

/** Whether an OpenTelemetry context manager is registered (the no-op one keeps no context). */
function otelContextPropagates(): boolean {
  if (!contextPropagates) {
    const probe = ROOT_CONTEXT.setValue(PROBE_KEY, true);
    contextPropagates = context.with(probe, () => context.active() === probe);
  }
  return contextPropagates;
}

function sentOfThisCall(): (() => void) | undefined {
  return (context.active().getValue(SENT_KEY) as (() => void) | undefined) ?? sentOfCall.getStore();
}

/** The undici interceptor (not a Nest one) that tells a runBankCall its request is being written to the bank. */
export function sentInterceptor(): Dispatcher.DispatcherComposeInterceptor {
  return (dispatch) => (options, handler) => {
    const sent = sentOfThisCall();
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
