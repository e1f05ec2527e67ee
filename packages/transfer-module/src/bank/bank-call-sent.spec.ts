import { AsyncLocalStorage } from 'node:async_hooks';
import { type Context, type ContextManager, context, ROOT_CONTEXT } from '@opentelemetry/api';
import type { Dispatcher } from 'undici';
import { runBankCall, sentInterceptor } from './bank-call-sent';

/** A context manager as the OpenTelemetry SDK registers one (AsyncLocalStorage underneath). */
class StorageContextManager implements ContextManager {
  private readonly storage = new AsyncLocalStorage<Context>();
  active(): Context {
    return this.storage.getStore() ?? ROOT_CONTEXT;
  }
  with<A extends unknown[], F extends (...args: A) => ReturnType<F>>(
    active: Context,
    fn: F,
    thisArg?: ThisParameterType<F>,
    ...args: A
  ): ReturnType<F> {
    return this.storage.run(active, () => fn.call(thisArg, ...args));
  }
  bind<T>(_context: Context, target: T): T {
    return target;
  }
  enable(): this {
    return this;
  }
  disable(): this {
    this.storage.disable();
    return this;
  }
}

/**
 * Two calls at once, each writing its request after an await; which call was told of which write. The fake
 * dispatcher starts each write on a later turn of the event loop, outside the call, as undici does; the result is
 * read once both writes have started (waiting on them, not on a delay, holds on a busy machine).
 */
async function twoCallsWriting(): Promise<string[]> {
  const told: string[] = [];
  const writes: Promise<void>[] = [];
  const dispatch = sentInterceptor()((_options, handler) => {
    writes.push(
      new Promise((written) =>
        setImmediate(() => {
          handler.onRequestStart?.({} as Dispatcher.DispatchController, {});
          written();
        }),
      ),
    );
    return true;
  });
  const call = (name: string) =>
    runBankCall(
      () => told.push(name),
      async () => {
        await new Promise((resolve) => setImmediate(resolve));
        dispatch({ path: `/${name}`, method: 'POST' }, {});
      },
    );
  await Promise.all([call('first'), call('second')]);
  expect(writes).toHaveLength(2);
  await Promise.all(writes);
  return told.sort();
}

describe('runBankCall and sentInterceptor', () => {
  afterAll(() => context.disable());

  it('tell each call of its own request being written, without a tracing SDK', async () => {
    expect(await twoCallsWriting()).toEqual(['first', 'second']);
  });

  it('tell each call of its own request being written through OpenTelemetry’s context once a manager is registered', async () => {
    expect(context.setGlobalContextManager(new StorageContextManager())).toBe(true);
    expect(await twoCallsWriting()).toEqual(['first', 'second']);
    // The call's callback is in the active OpenTelemetry context, where a span started inside the call sees it.
    let seenInContext = false;
    await runBankCall(
      () => undefined,
      async () => {
        seenInContext = context.active() !== ROOT_CONTEXT;
      },
    );
    expect(seenInContext).toBe(true);
  });
});
