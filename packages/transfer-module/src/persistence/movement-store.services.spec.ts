import { pendingTransferMigrations, runTransferMigrations } from './run-transfer-migrations';
import { sampleIntent } from './testing/sample-intent';
import { storeFixture, T0 } from './testing/store-fixture';
import { describeEachEngine } from './testing/test-engines';

// What the services need beyond the basic store: un-counting a send that certainly was not processed, the
// due backlog, and pages of movements with their history.

const LEASE = 30_000;

describeEachEngine('MovementStore for the services', (engine) => {
  it('tells which of giro’s migrations have not run yet', async () => {
    const dataSource = await (await engine.createDatabase()).connect();
    expect(await pendingTransferMigrations(dataSource)).toEqual([
      'TransferSchemaBaseline1795291100000',
      'CreateTransferSchema1795291200000',
      'AddDueTimeIndex1795377600000',
      'DropNetworkIdIndex1795464000000',
      'PendingDueIndex1795550400000',
      'MovementsFillfactor1795636800000',
      'QueriesHeldUntil1795723200000',
      'SubAccounts1795896000000',
      'MovementLookupIds1795982400000',
      'WebhookOutbox1796068800000',
      'ApiKeys1796155200000',
      'AnomalyResolutions1796241600000',
      'LimitUsage1796328000000',
      'AuditTrail1796414400000',
      'Approvals1796500800000',
      'Replicas1796587200000',
      'MovementSearch1796673600000',
      'MovementText1796760000000',
      'MovementStatusAmount1796846400000',
      'MovementAmountText1796932800000',
      'MovementWords1797019200000',
      'MovementOrderCovering1797105600000',
      'SearchOnEngineIndexes1797192000000',
      'ApiKeyMinters1797278400000',
      'AuditTrailSealed1797364800000',
      'WebhookEventTraceParent1797408000000',
      'Payees1797451200000',
      'ScheduledTransfers1797537600000',
      'Statements1797624000000',
      'DailyClose1797710400000',
      'AccountQueues1797796800000',
      'TextIndexWithoutPositions1797969600000',
      'UnknownDebits1798056000000',
      'AmountFromStatusIndex1798315200000',
      'StatementRowsUncheckedKeys1798660800000',
      'TextIndexAtCommit1798747200000',
    ]);
    await runTransferMigrations(dataSource);
    expect(await pendingTransferMigrations(dataSource)).toEqual([]);
  });

  it('un-counts a send that was certainly not processed, never below zero', async () => {
    const fixture = await storeFixture(engine);
    const { intent, fingerprint } = sampleIntent(1);
    await fixture.store.recordIntent(intent, fingerprint, { sendNow: true, owner: 'w', leaseMs: LEASE });
    const notProcessed = { patch: { lastError: 'not sent' }, uncountSend: true, releaseLease: false };
    expect(await fixture.store.applyUpdate(1, 'w', notProcessed)).toMatchObject({
      applied: true,
      movement: { attempts: 0 },
    });
    expect(await fixture.store.applyUpdate(1, 'w', notProcessed)).toMatchObject({ movement: { attempts: 0 } });
    expect(await fixture.store.markSendAttempt(1, 'w')).toBe(true);
    expect(await fixture.store.findByOriginId(1)).toMatchObject({ attempts: 1, lastError: 'not sent' });
  });

  it('counts the due backlog: not final, due by now, leased or not', async () => {
    const fixture = await storeFixture(engine);
    for (const originId of [1, 2, 3, 4]) await fixture.record(originId);
    await fixture.store.claim(2, 'w', LEASE);
    await fixture.store.applyUpdate(2, 'w', {
      patch: { status: 'CREATED', nextQueryAt: new Date(T0 + 5000) },
      history: [{ to: 'CREATED', source: 'create' }],
      releaseLease: true,
    });
    await fixture.store.claim(3, 'w', LEASE);
    await fixture.store.applyUpdate(3, 'w', {
      patch: { status: 'COMPLETED' },
      history: [{ to: 'COMPLETED', source: 'create' }],
      releaseLease: true,
    });
    await fixture.store.claim(4, 'other', LEASE);
    expect(await fixture.store.countDue()).toBe(2); // 1 and the leased 4
    expect(await fixture.store.countDue(new Date(T0 + 5000))).toBe(3);
    expect(await fixture.store.countDue(new Date(T0 - 1))).toBe(0);
  });

  it('lists pages with each movement’s history and cancellation', async () => {
    const fixture = await storeFixture(engine);
    for (const originId of [3, 1, 2]) await fixture.record(originId);
    await fixture.store.claim(2, 'w', LEASE);
    await fixture.store.applyUpdate(2, 'w', {
      patch: { status: 'FAILED' },
      history: [{ to: 'FAILED', source: 'create' }],
      cancellation: { code: 'R1', message: 'rejected' },
      releaseLease: true,
    });
    const first = await fixture.store.listDetails({ limit: 2 });
    expect(first.items.map((item) => [item.originId, item.history.map((row) => row.to)])).toEqual([
      [1, ['PENDING']],
      [2, ['PENDING', 'FAILED']],
    ]);
    expect(first.items.map((item) => item.cancellation?.reasonCode ?? null)).toEqual([null, 'R1']);
    const second = await fixture.store.listDetails({ limit: 2, after: first.nextCursor as string });
    expect(second).toMatchObject({ items: [{ originId: 3, cancellation: null }], nextCursor: null });
    expect(await fixture.store.listDetails({ limit: 2, status: 'FAILED' })).toMatchObject({
      items: [{ originId: 2, status: 'FAILED' }],
      nextCursor: null,
    });
    await expect(fixture.store.listDetails({ limit: 0 })).rejects.toMatchObject({ field: 'limit' });
  });
});
