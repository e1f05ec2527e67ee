import type { DataSource } from 'typeorm';
import { type Actor, ManualClock } from '../domain';
import { ApiKeyStore } from './api-key-store';
import { auditHash, GENESIS_HASH } from './audit-hash';
import { type AuditRequest, runInAuditScope } from './audit-scope';
import { AuditTrail, type AuditTrailOptions } from './audit-trail';
import { transactionsFor } from './engine/engine-adapter';
import { MovementStore } from './movement-store';
import { StoreArgumentError } from './persistence.errors';
import { sampleIntent } from './testing/sample-intent';
import { T0 } from './testing/store-fixture';
import { describeEachEngine, type TestEngine } from './testing/test-engines';

// The audit trail on both engines: rows appended in the change's own transaction, one gap-free chain under
// concurrent writers, tampering found by verify, and the list's filters and pages.

const ANA: Actor = { keyId: 'k-ana', name: 'ana', role: 'operator' };
const ROOT: Actor = { keyId: 'k-root', name: 'root', role: 'admin' };
const CVU = '0000003100010000000001';
const LEASE = 30_000;

function requestOf(who: Actor | null, action: string, requestId = `req-${action}`): AuditRequest {
  return { who, action, requestId, clientAddress: '203.0.113.7' };
}

async function trailOn(engine: TestEngine, options: AuditTrailOptions = {}) {
  const database = await engine.createDatabase();
  const dataSource = await database.connectMigrated();
  const clock = new ManualClock(T0);
  const trail = new AuditTrail(dataSource, clock, options);
  const store = new MovementStore(dataSource, clock, { audit: trail });
  return { database, dataSource, clock, trail, store };
}

/** An `ok` row appended in a transaction of its own, as `runAs` does for a request the store did not record. */
function recordOk(trail: AuditTrail, who: Actor | null, action: string, originId: number | null = null) {
  return trail.record({ ...requestOf(who, action), outcome: 'ok', originId });
}

/** Drops the append-only triggers, as someone with the database's DDL rights could. */
async function dropAppendOnlyTriggers(engine: TestEngine, dataSource: DataSource): Promise<void> {
  if (engine.kind === 'sqlite') {
    await dataSource.query('DROP TRIGGER "TRG_giro_audit_no_update"');
    await dataSource.query('DROP TRIGGER "TRG_giro_audit_no_delete"');
  } else await dataSource.query('DROP TRIGGER "TRG_giro_audit_append_only" ON "giro_audit"');
}

describeEachEngine('AuditTrail', (engine) => {
  it('records a store change inside an audit scope, in its transaction, with who, what, before and after; nothing outside one', async () => {
    const { trail, store, clock } = await trailOn(engine);
    await store.registerSubAccount({ address: CVU, ownerPersonId: '20123456786', ownerName: 'Ana' });
    expect((await trail.list({}, { limit: 10 })).items).toEqual([]);

    clock.advance(1_000);
    await runInAuditScope(requestOf(ANA, 'sub_account.disable', 'req-1'), async (scope) => {
      await store.disableSubAccount(CVU);
      expect(scope.recorded).toBe(true);
    });
    const [row] = (await trail.list({}, { limit: 10 })).items;
    expect(row).toEqual({
      seq: 1,
      at: new Date(T0 + 1_000),
      actor: ANA,
      action: 'sub_account.disable',
      originId: null,
      target: CVU,
      before: { disabledAt: null },
      after: { disabledAt: new Date(T0 + 1_000).toISOString() },
      requestId: 'req-1',
      clientAddress: '203.0.113.7',
      outcome: 'ok',
      statusCode: null,
      error: null,
      prevHash: GENESIS_HASH,
      hash: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    // Disabling again changes nothing: no row (the caller's own `ok` row says it was asked).
    await runInAuditScope(requestOf(ANA, 'sub_account.disable'), async (scope) => {
      await store.disableSubAccount(CVU);
      expect(scope.recorded).toBe(false);
    });
    expect(await trail.verify()).toEqual({ intact: true, rows: 1 });
  });

  it('leaves no row for a change that rolls back', async () => {
    const { dataSource, trail, clock } = await trailOn(engine);
    const keys = new ApiKeyStore(dataSource, clock, trail);
    const key = {
      keyId: 'abcdefgh',
      name: 'ana',
      role: 'operator' as const,
      keyHash: 'f'.repeat(64),
      createdBy: 'k-root',
    };
    await runInAuditScope(requestOf(ROOT, 'key.create'), () => keys.create(key));
    // A change that fails after its row was appended: both undone together.
    await expect(
      runInAuditScope(requestOf(ROOT, 'key.create'), () =>
        transactionsFor(dataSource).write(async (manager) => {
          await trail.recordChange(manager, { target: 'bob', before: null, after: { name: 'bob' } });
          throw new Error('refused after the row');
        }),
      ),
    ).rejects.toThrow('refused after the row');
    await runInAuditScope(requestOf(ROOT, 'key.revoke'), () => keys.revoke('ana'));
    const rows = (await trail.list({}, { limit: 10 })).items;
    expect(rows.map((row) => [row.seq, row.action, row.target])).toEqual([
      [2, 'key.revoke', 'ana'],
      [1, 'key.create', 'ana'],
    ]);
    // Never the key's hash.
    expect(JSON.stringify(rows)).not.toContain('f'.repeat(64));
    expect(await trail.verify()).toEqual({ intact: true, rows: 2 });
  });

  it('records a cancellation acknowledgement in its transaction, once', async () => {
    const { store, trail } = await trailOn(engine);
    await store.recordIntent(...intentArguments(7));
    await store.claim(7, 'w', LEASE);
    await store.applyUpdate(7, 'w', {
      patch: { status: 'FAILED', lastError: 'INSUFFICIENT_FUNDS' },
      history: [{ to: 'FAILED', source: 'query' }],
      cancellation: { code: 'INSUFFICIENT_FUNDS', message: 'not enough money' },
      releaseLease: true,
    });
    const by = { keyId: ANA.keyId, name: ANA.name };
    for (let time = 0; time < 2; time++) {
      await runInAuditScope(requestOf(ANA, 'cancellation.ack'), () =>
        store.acknowledgeCancellation(7, { reference: 'REG-7', by }),
      );
    }
    const rows = (await trail.list({ originId: 7 }, { limit: 10 })).items;
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      action: 'cancellation.ack',
      originId: 7,
      before: { acknowledgedAt: null, reference: null, acknowledgedBy: null },
      after: { reference: 'REG-7', acknowledgedBy: by },
    });
  });

  it('keeps one gap-free chain under concurrent appends from several connections', async () => {
    const { database, trail, clock } = await trailOn(engine);
    const trails = [trail];
    for (let index = 0; index < 4; index++) trails.push(new AuditTrail(await database.connect(), clock));
    await Promise.all(
      Array.from({ length: 50 }, (_, index) =>
        recordOk(trails[index % trails.length] as AuditTrail, ANA, 'transfer.create', index + 1),
      ),
    );
    expect(await trail.verify()).toEqual({ intact: true, rows: 50 });
    const seqs = [];
    let after: string | undefined;
    do {
      const page = await trail.list({}, { limit: 20, ...(after !== undefined && { after }) });
      seqs.push(...page.items.map((row) => row.seq));
      after = page.nextCursor ?? undefined;
    } while (after !== undefined);
    expect(seqs).toEqual(Array.from({ length: 50 }, (_, index) => 50 - index));
  });

  it('attributes concurrent changes each to its own scope (SQLite: transactions that share one commit)', async () => {
    const { trail, store } = await trailOn(engine);
    const addresses = Array.from({ length: 10 }, (_, index) => `00000031000100000000${String(index).padStart(2, '0')}`);
    await Promise.all(
      addresses.map((address, index) =>
        runInAuditScope(requestOf({ ...ANA, keyId: `k-${index}` }, 'sub_account.create', `req-${index}`), () =>
          store.registerSubAccount({ address, ownerPersonId: '20123456786', ownerName: null }),
        ),
      ),
    );
    const rows = (await trail.list({}, { limit: 20 })).items;
    expect(rows).toHaveLength(10);
    for (const row of rows) {
      const index = addresses.indexOf(row.target as string);
      expect([row.actor?.keyId, row.requestId]).toEqual([`k-${index}`, `req-${index}`]);
    }
  });

  it('is append-only; a row changed or removed behind the triggers breaks the chain where it happened', async () => {
    const { dataSource, trail } = await trailOn(engine);
    for (let index = 1; index <= 5; index++) await recordOk(trail, ANA, 'transfer.create', index);
    await expect(dataSource.query(`UPDATE "giro_audit" SET "after" = '{}'`)).rejects.toThrow(/append-only/);
    await expect(dataSource.query('DELETE FROM "giro_audit"')).rejects.toThrow(/append-only/);
    expect(await trail.verify()).toEqual({ intact: true, rows: 5 });

    await dropAppendOnlyTriggers(engine, dataSource);
    await dataSource.query(`UPDATE "giro_audit" SET "after" = '{"amount":"1.00"}' WHERE "seq" = 3`);
    expect(await trail.verify()).toEqual({
      intact: false,
      brokenAt: 3,
      reason: 'hash mismatch: the row was changed after it was written',
    });
    await dataSource.query(`UPDATE "giro_audit" SET "after" = NULL WHERE "seq" = 3`);
    expect(await trail.verify()).toEqual({ intact: true, rows: 5 });

    await dataSource.query('DELETE FROM "giro_audit" WHERE "seq" = 2');
    expect(await trail.verify()).toEqual({ intact: false, brokenAt: 3, reason: 'gap in seq: row 2 is missing' });
  });

  it('finds a row rewritten with a fresh hash: the next row no longer chains to it', async () => {
    const { dataSource, trail } = await trailOn(engine);
    for (let index = 1; index <= 3; index++) await recordOk(trail, ANA, 'transfer.create', index);
    await dropAppendOnlyTriggers(engine, dataSource);
    // Whoever knows the hash rule recomputes the changed row's hash; the row after it still names the old one.
    const [original] = await dataSource.query('SELECT "hash" FROM "giro_audit" WHERE "seq" = 2');
    const [row] = (await trail.list({ originId: 2 }, { limit: 1 })).items;
    if (row === undefined) throw new Error('row 2 is missing');
    const forged = auditHash({
      seq: 2,
      atMs: row.at.getTime(),
      actorKeyId: ROOT.keyId,
      actorName: ROOT.name,
      actorRole: ROOT.role,
      action: row.action,
      originId: 2,
      target: null,
      before: null,
      after: null,
      requestId: row.requestId,
      clientAddress: row.clientAddress,
      outcome: 'ok',
      statusCode: null,
      error: null,
      prevHash: row.prevHash,
    });
    expect(forged).not.toBe(original.hash);
    await dataSource.query(
      engine.kind === 'sqlite'
        ? `UPDATE "giro_audit" SET "actor_key_id" = ?, "actor_name" = ?, "actor_role" = ?, "hash" = ? WHERE "seq" = 2`
        : `UPDATE "giro_audit" SET "actor_key_id" = $1, "actor_name" = $2, "actor_role" = $3, "hash" = $4 WHERE "seq" = 2`,
      [ROOT.keyId, ROOT.name, ROOT.role, forged],
    );
    expect(await trail.verify()).toEqual({
      intact: false,
      brokenAt: 3,
      reason: 'prev_hash mismatch: it is not the hash of seq 2',
    });
  });

  it('lists newest first by actor (key id or name), action, transfer, outcome and time, a page at a time', async () => {
    const { trail, clock } = await trailOn(engine);
    await recordOk(trail, ANA, 'transfer.create', 1);
    clock.advance(60_000);
    await recordOk(trail, ROOT, 'key.create');
    clock.advance(60_000);
    await trail.record({ ...requestOf(null, 'transfer.create'), outcome: 'refused', statusCode: 401, error: 'no key' });
    clock.advance(60_000);
    await recordOk(trail, ANA, 'cancellation.ack', 1);

    const seqs = async (filter: Parameters<AuditTrail['list']>[0]) =>
      (await trail.list(filter, { limit: 10 })).items.map((row) => row.seq);
    expect(await seqs({})).toEqual([4, 3, 2, 1]);
    expect(await seqs({ actor: 'ana' })).toEqual([4, 1]);
    expect(await seqs({ actor: 'k-root' })).toEqual([2]);
    expect(await seqs({ action: 'transfer.create' })).toEqual([3, 1]);
    expect(await seqs({ originId: 1 })).toEqual([4, 1]);
    expect(await seqs({ outcome: 'refused' })).toEqual([3]);
    expect(await seqs({ from: new Date(T0 + 60_000), to: new Date(T0 + 180_000) })).toEqual([3, 2]);
    expect(await seqs({ actor: 'ana', action: 'cancellation.ack' })).toEqual([4]);

    const first = await trail.list({}, { limit: 3 });
    expect(first.items.map((row) => row.seq)).toEqual([4, 3, 2]);
    expect(first.nextCursor).toBe('2');
    const second = await trail.list({}, { limit: 3, after: first.nextCursor as string });
    expect(second).toMatchObject({ items: [{ seq: 1 }], nextCursor: null });

    await expect(trail.list({}, { limit: 3, after: 'x' })).rejects.toThrow(StoreArgumentError);
    await expect(trail.list({ outcome: 'maybe' as never }, { limit: 3 })).rejects.toThrow(/outcome must be one of/);
    await expect(trail.list({}, { limit: 0 })).rejects.toThrow(/limit must be an integer/);
  });
});

function intentArguments(originId: number): Parameters<MovementStore['recordIntent']> {
  const { intent, fingerprint } = sampleIntent(originId);
  return [intent, fingerprint, { sendNow: false }];
}
