import type { DataSource } from 'typeorm';
import { auditHash } from '../audit-hash';
import { hashedColumnsOf } from '../audit-records';
import { engineOf } from '../engine/database-engine';

// Test support only: what a database writer without the trail's key can do to giro_audit.

/** Drops the append-only triggers, as someone with the database's DDL rights could. */
export async function dropAuditTriggers(dataSource: DataSource): Promise<void> {
  if (engineOf(dataSource) === 'sqlite') {
    await dataSource.query('DROP TRIGGER "TRG_giro_audit_no_update"');
    await dataSource.query('DROP TRIGGER "TRG_giro_audit_no_delete"');
    await dataSource.query('DROP TRIGGER "TRG_giro_audit_continues_chain"');
  } else {
    await dataSource.query('DROP TRIGGER "TRG_giro_audit_append_only" ON "giro_audit"');
    await dataSource.query('DROP TRIGGER "TRG_giro_audit_no_truncate" ON "giro_audit"');
  }
}

/**
 * Gives row `seq` another actor and re-hashes it and every row after it with plain sha-256, chained: what anyone
 * who knows the hash rule but not the key can do (the triggers dropped first).
 */
export async function rewriteActorAndRehash(dataSource: DataSource, seq: number, actor: string): Promise<void> {
  const rows: Record<string, unknown>[] = await dataSource.query(
    `SELECT * FROM "giro_audit" WHERE "seq" >= ${Number(seq)} ORDER BY "seq"`,
  );
  const update =
    engineOf(dataSource) === 'sqlite'
      ? 'UPDATE "giro_audit" SET "actor_key_id" = ?, "actor_name" = ?, "prev_hash" = ?, "hash" = ? WHERE "seq" = ?'
      : 'UPDATE "giro_audit" SET "actor_key_id" = $1, "actor_name" = $2, "prev_hash" = $3, "hash" = $4 WHERE "seq" = $5';
  let previousHash: string | undefined;
  for (const row of rows) {
    const columns = hashedColumnsOf(row);
    if (columns.seq === seq) {
      columns.actorKeyId = actor;
      columns.actorName = actor;
    }
    if (previousHash !== undefined) columns.prevHash = previousHash;
    previousHash = auditHash(columns);
    await dataSource.query(update, [
      columns.actorKeyId,
      columns.actorName,
      columns.prevHash,
      previousHash,
      columns.seq,
    ]);
  }
}
