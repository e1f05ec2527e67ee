import type { DataSource } from 'typeorm';
import { ManualClock } from '../domain';
import { AuditTrail } from './audit-trail';
import { dropAuditTriggers, rewriteActorAndRehash } from './testing/audit-tampering';
import { T0 } from './testing/store-fixture';
import { describeEachEngine } from './testing/test-engines';

// The audit trail keyed with a secret outside the database: a row rewritten and re-hashed by a database writer
// without the key is named; checkpoints noted outside the database catch a deleted tail, a truncation, an old
// copy; the engines refuse TRUNCATE (Postgres) and any insert that does not continue the chain (SQLite).

const KEY = 'a-secret-kept-outside-the-database';
const ACTOR = { keyId: 'k-ana', name: 'ana', role: 'operator' as const };

function append(trail: AuditTrail, rows: number) {
  return (async () => {
    for (let index = 0; index < rows; index++) {
      await trail.record({
        who: ACTOR,
        action: 'transfer.create',
        requestId: `req-${index}`,
        clientAddress: null,
        outcome: 'ok',
      });
    }
  })();
}

describeEachEngine('AuditTrail keyed with AUDIT_HMAC_KEY', (engine) => {
  let dataSource: DataSource;
  let clock: ManualClock;
  const trailWith = (hmacKey?: string) => new AuditTrail(dataSource, clock, hmacKey === undefined ? {} : { hmacKey });

  beforeEach(async () => {
    dataSource = await (await engine.createDatabase()).connectMigrated();
    clock = new ManualClock(T0);
  });

  it('keys every hash: intact with the key, broken at the first row with another key or none', async () => {
    await append(trailWith(KEY), 3);
    expect(await trailWith(KEY).verify()).toEqual({ intact: true, rows: 3 });
    expect(await trailWith('another-key-of-enough-length').verify()).toEqual({
      intact: false,
      brokenAt: 1,
      reason:
        'hash mismatch: the row was changed after it was written, or AUDIT_HMAC_KEY is not the key it was written with',
    });
    expect(await trailWith().verify()).toMatchObject({ intact: false, brokenAt: 1 });
  });

  it('names the first row rewritten and re-hashed with plain sha-256 by someone without the key', async () => {
    await append(trailWith(KEY), 15);
    await dropAuditTriggers(dataSource);
    await rewriteActorAndRehash(dataSource, 10, 'k-root');
    // Without the key the forgery holds: that is what the key is for.
    expect(await trailWith().verify()).toEqual({ intact: false, brokenAt: 1, reason: expect.any(String) });
    expect(await trailWith(KEY).verify()).toEqual({
      intact: false,
      brokenAt: 10,
      reason: 'hash mismatch: hashed without AUDIT_HMAC_KEY after keyed rows: rewritten by someone without the key',
    });
  });

  it('accepts the plain rows written before the key was set, and no plain row after a keyed one', async () => {
    await append(trailWith(), 3);
    await append(trailWith(KEY), 2);
    expect(await trailWith(KEY).verify()).toEqual({ intact: true, rows: 5, unkeyedRows: 3 });
    // Rewritten from row 2 on, the keyed rows too: nothing keyed is left, and that is not taken for an old trail.
    await dropAuditTriggers(dataSource);
    await rewriteActorAndRehash(dataSource, 2, 'k-root');
    expect(await trailWith(KEY).verify()).toEqual({
      intact: false,
      brokenAt: 1,
      reason:
        'no row is keyed with this AUDIT_HMAC_KEY: the trail was written without it (or with another key), or rewritten whole by someone without it',
    });
  });

  it('fails against a checkpoint once the tail is deleted, the trail truncated, or a row no longer has its hash', async () => {
    const trail = trailWith(KEY);
    expect(await trail.lastCheckpoint()).toBeNull();
    await append(trail, 5);
    const checkpoint = await trail.lastCheckpoint();
    expect(checkpoint).toEqual({ seq: 5, hash: expect.stringMatching(/^[0-9a-f]{64}$/) });
    if (checkpoint === null) return;
    expect(await trail.verify([checkpoint])).toEqual({ intact: true, rows: 5 });
    expect(await trail.verify([{ seq: 5, hash: 'f'.repeat(64) }])).toMatchObject({
      intact: false,
      brokenAt: 5,
      reason: expect.stringMatching(/^checkpoint mismatch: seq 5 had hash f{64}/),
    });
    await dropAuditTriggers(dataSource);
    await dataSource.query('DELETE FROM "giro_audit" WHERE "seq" >= 4');
    // The chain alone cannot tell a deleted tail: the checkpoint can.
    expect(await trail.verify()).toEqual({ intact: true, rows: 3 });
    expect(await trail.verify([checkpoint])).toEqual({
      intact: false,
      brokenAt: 4,
      reason:
        'checkpoint seq 5 is gone: the trail ends at seq 3 (rows deleted from its end, truncated, or restored from an older copy)',
    });
    await dataSource.query('DELETE FROM "giro_audit"');
    expect(await trail.verify([checkpoint])).toMatchObject({ intact: false, brokenAt: 1 });
  });

  it('refuses what gets around the row triggers: TRUNCATE on Postgres, INSERT OR REPLACE and a row out of the chain on SQLite', async () => {
    const trail = trailWith(KEY);
    await append(trail, 3);
    if (engine.kind === 'postgres') {
      await expect(dataSource.query('TRUNCATE "giro_audit"')).rejects.toThrow(/append-only/);
    } else {
      const [row] = await dataSource.query('SELECT * FROM "giro_audit" WHERE "seq" = 2');
      const columns = Object.keys(row);
      const values = columns.map((column) => (column === 'actor_key_id' ? 'k-root' : row[column]));
      const insert = (verb: string) =>
        dataSource.query(
          `${verb} INTO "giro_audit" (${columns.map((column) => `"${column}"`).join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`,
          values.map((value, index) => (columns[index] === 'seq' && verb === 'INSERT' ? 4 : value)),
        );
      await expect(insert('INSERT OR REPLACE')).rejects.toThrow(/must continue the chain/);
      // seq 4 but chained to row 1's hash, not row 3's.
      await expect(insert('INSERT')).rejects.toThrow(/must continue the chain/);
    }
    expect(await trail.verify()).toEqual({ intact: true, rows: 3 });
    await append(trail, 1);
    expect(await trail.verify()).toEqual({ intact: true, rows: 4 });
  });
});
