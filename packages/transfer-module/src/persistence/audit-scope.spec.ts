import { AsyncResource } from 'node:async_hooks';
import { context, ROOT_CONTEXT } from '@opentelemetry/api';
import { StorageContextManager } from '../domain/testing/storage-context-manager';
import { currentAuditScope, runInAuditScope } from './audit-scope';

/**
 * Two requests at once, each reading its scope after an await and from work bound where it was queued
 * (AsyncResource.bind, as the SQLite group commit runs a caller's transaction on another's turn): the actions seen.
 */
async function twoRequestsReading(): Promise<string[]> {
  const queued: Array<() => string | undefined> = [];
  const request = (action: string) =>
    runInAuditScope({ who: null, action, requestId: action, clientAddress: null }, async (scope) => {
      await new Promise((resolve) => setImmediate(resolve));
      expect(currentAuditScope()).toBe(scope);
      queued.push(AsyncResource.bind(() => currentAuditScope()?.action));
    });
  await Promise.all([request('transfer.create'), request('key.revoke')]);
  // Run outside either scope, as the group's turn does.
  return queued.map((work) => work() ?? 'none').sort();
}

describe('audit scopes', () => {
  afterAll(() => context.disable());

  it('give each request its own scope without a tracing SDK', async () => {
    expect(await twoRequestsReading()).toEqual(['key.revoke', 'transfer.create']);
    expect(currentAuditScope()).toBeUndefined();
  });

  it('ride in OpenTelemetry’s context once a context manager is registered, each request its own', async () => {
    expect(context.setGlobalContextManager(new StorageContextManager())).toBe(true);
    expect(await twoRequestsReading()).toEqual(['key.revoke', 'transfer.create']);
    const inContext = await runInAuditScope(
      { who: null, action: 'transfer.create', requestId: 'r', clientAddress: null },
      async () => context.active() !== ROOT_CONTEXT,
    );
    expect(inContext).toBe(true);
    expect(currentAuditScope()).toBeUndefined();
  });
});
