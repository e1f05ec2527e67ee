import { context, ROOT_CONTEXT } from '@opentelemetry/api';
import { ContextValue } from './context-value';
import { StorageContextManager } from './testing/storage-context-manager';

const first = new ContextValue<string>('spec first');
const second = new ContextValue<string>('spec second');

/** Two calls at once, each reading both values after awaits and a timer; what each saw. */
async function twoCallsReading(): Promise<string[]> {
  const call = (name: string) =>
    first.runWith(name, () =>
      second.runWith(`${name} inner`, async () => {
        await new Promise((resolve) => setImmediate(resolve));
        const inTimer = await new Promise<string | undefined>((resolve) =>
          setTimeout(() => resolve(first.current()), 1),
        );
        return `${first.current()} / ${second.current()} / ${inTimer}`;
      }),
    );
  return Promise.all([call('a'), call('b')]);
}

describe('ContextValue', () => {
  afterAll(() => context.disable());

  it('gives each call its own values without a tracing SDK, none outside', async () => {
    expect(await twoCallsReading()).toEqual(['a / a inner / a', 'b / b inner / b']);
    expect(first.current()).toBeUndefined();
    expect(context.active()).toBe(ROOT_CONTEXT);
  });

  it('keeps a value set before the manager was registered, and an inner one set after', async () => {
    let register = () => {};
    const registered = new Promise<void>((resolve) => {
      register = resolve;
    });
    const outer = first.runWith('before', async () => {
      await registered;
      return second.runWith('after', async () => `${first.current()} / ${second.current()}`);
    });
    expect(context.setGlobalContextManager(new StorageContextManager())).toBe(true);
    register();
    expect(await outer).toBe('before / after');
  });

  it('rides in OpenTelemetry’s context once a context manager is registered, as the SDK’s', async () => {
    expect(await twoCallsReading()).toEqual(['a / a inner / a', 'b / b inner / b']);
    // In the active OpenTelemetry context, where the SDK's spans started inside see it: no storage of giro's.
    const seen = await first.runWith('traced', async () => context.active() !== ROOT_CONTEXT);
    expect(seen).toBe(true);
    expect(first.current()).toBeUndefined();
  });
});
