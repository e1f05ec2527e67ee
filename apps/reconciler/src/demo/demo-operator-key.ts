import { type ApiKeyService, BOOTSTRAP_ADMIN_ACTOR } from '@giro/transfer-module';

/** The names of the demo's console keys: `console-demo-<UTC time to the millisecond>`, unique as key names must be. */
export const DEMO_OPERATOR_KEY_PREFIX = 'console-demo-';

/**
 * Sandbox mode's key to sign in to the console with: a new operator key at every start, the previous demo keys
 * revoked first, so the database holds one working demo key however often `pnpm start` runs. An operator, not the
 * admin token: what a person in the back office would be given (create, refresh, acknowledge, batches).
 */
export async function freshDemoOperatorKey(
  keys: Pick<ApiKeyService, 'listKeys' | 'revokeKey' | 'createKey'>,
  now: Date = new Date(),
): Promise<{ name: string; key: string }> {
  for (const existing of await keys.listKeys()) {
    if (existing.active && existing.name.startsWith(DEMO_OPERATOR_KEY_PREFIX)) await keys.revokeKey(existing.name);
  }
  const name = `${DEMO_OPERATOR_KEY_PREFIX}${now.toISOString().replace(/\D/g, '')}`;
  // Minted by the start itself, which holds the admin token.
  const created = await keys.createKey({ name, role: 'operator' }, BOOTSTRAP_ADMIN_ACTOR.keyId);
  return { name: created.name, key: created.key };
}
