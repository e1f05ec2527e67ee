import { AsyncLocalStorage } from 'node:async_hooks';
import { type Context, context, createContextKey, ROOT_CONTEXT } from '@opentelemetry/api';

// Node 20 runs the hook of every enabled AsyncLocalStorage on every promise the process creates, whatever the
// storage holds: each storage beside the tracing SDK's context manager would cost every promise of every query
// and request again. So giro keeps what one call carries through its async work (a request's audit scope) in one
// context: OpenTelemetry's where a context manager is registered (a tracing SDK's), and otherwise one storage of
// giro's, holding a context of the same kind, enabled by its first use. What a callee can be handed as an argument
// (the bank budget's "request written" callback) is handed so, which costs no storage at all.

const giroContexts = new AsyncLocalStorage<Context>();
/** Made once: without a context manager the probe runs on every `runWith`, and a context is a copied map. */
const PROBE = ROOT_CONTEXT.setValue(createContextKey('giro context propagation probe'), true);
/** Once seen, a registered context manager stays (the API has no unregistering short of `context.disable()`). */
let contextPropagates = false;

/** A value that whatever runs inside `runWith` (awaited promises, timers, callbacks) sees, each call its own. */
export class ContextValue<T> {
  private readonly key: symbol;

  constructor(description: string) {
    this.key = createContextKey(description);
  }

  /** Runs `work` with `value` as this one's current value (another `runWith` inside overrides it there). */
  runWith<R>(value: T, work: () => R): R {
    if (otelContextPropagates()) return context.with(context.active().setValue(this.key, value), work);
    return giroContexts.run((giroContexts.getStore() ?? ROOT_CONTEXT).setValue(this.key, value), work);
  }

  /** The value of the innermost `runWith` the caller runs in; undefined outside any. */
  current(): T | undefined {
    // Both places: a value set before an SDK was registered stays in giro's storage.
    return (context.active().getValue(this.key) ?? giroContexts.getStore()?.getValue(this.key)) as T | undefined;
  }
}

/** Whether an OpenTelemetry context manager is registered (the no-op one keeps no context). */
function otelContextPropagates(): boolean {
  if (!contextPropagates) contextPropagates = context.with(PROBE, () => context.active() === PROBE);
  return contextPropagates;
}
