import { context, ROOT_CONTEXT } from '@opentelemetry/api';
import type { Dispatcher } from 'undici';
import { StorageContextManager } from '../domain/testing/storage-context-manager';
import { runBankCall, sentInterceptor } from './bank-call-sent';

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
