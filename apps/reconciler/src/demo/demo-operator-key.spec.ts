import type { ApiKeyView, CreatedApiKey } from '@giro/transfer-module';
import { DEMO_OPERATOR_KEY_PREFIX, freshDemoOperatorKey } from './demo-operator-key';

/** The keys, in memory: what freshDemoOperatorKey reads and changes of ApiKeyService. */
function keyStore(initial: Partial<ApiKeyView>[]) {
  const keys = initial.map((key) => ({ active: true, role: 'operator', ...key }) as ApiKeyView);
  return {
    keys,
    listKeys: async () => keys.map((key) => ({ ...key })),
    revokeKey: async (name: string) => {
      const key = keys.find((candidate) => candidate.name === name) as ApiKeyView;
      key.active = false;
      return key;
    },
    createKey: async (input: unknown) => {
      const { name, role } = input as { name: string; role: ApiKeyView['role'] };
      if (keys.some((key) => key.name === name)) throw new Error(`name ${name} taken`);
      keys.push({ name, role, active: true } as ApiKeyView);
      return { name, role, key: `giro_0000000000000000_${'a'.repeat(64)}` } as CreatedApiKey;
    },
  };
}

describe('the demo console key', () => {
  it('is a new operator key named for the time, the earlier demo keys revoked and the others untouched', async () => {
    const store = keyStore([{ name: `${DEMO_OPERATOR_KEY_PREFIX}20261123101500000` }, { name: 'ops' }]);
    const made = await freshDemoOperatorKey(store, new Date('2026-11-24T08:53:39.123Z'));
    expect(made).toEqual({ name: 'console-demo-20261124085339123', key: expect.stringMatching(/^giro_/) });
    expect(store.keys.map(({ name, role, active }) => ({ name, role, active }))).toEqual([
      { name: 'console-demo-20261123101500000', role: 'operator', active: false },
      { name: 'ops', role: 'operator', active: true },
      { name: 'console-demo-20261124085339123', role: 'operator', active: true },
    ]);
  });
});
