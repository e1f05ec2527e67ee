import type { MigrationInterface, QueryRunner } from 'typeorm';
import { engineOf } from '../engine/database-engine';

// The audit trail's triggers refused UPDATE and DELETE row by row; two ways around them are closed here.
// Postgres: TRUNCATE fires no row trigger, so a statement trigger refuses it.
// SQLite: INSERT OR REPLACE deletes the row it replaces without firing the DELETE trigger (recursive triggers are
// off), so every insert must continue the chain: the next seq, and the last row's hash as its prev_hash. The writer
// (persistence/audit-trail.ts) always does; a row put anywhere else is refused. A migration is a snapshot: the
// genesis hash is written out, not imported.

const GENESIS_HASH = '0'.repeat(64);

const SQLITE_CHAIN_TRIGGER = `CREATE TRIGGER "TRG_giro_audit_continues_chain" BEFORE INSERT ON "giro_audit"
   WHEN NEW."seq" IS NOT COALESCE((SELECT MAX("seq") FROM "giro_audit"), 0) + 1
     OR NEW."prev_hash" IS NOT COALESCE((SELECT "hash" FROM "giro_audit" ORDER BY "seq" DESC LIMIT 1), '${GENESIS_HASH}')
   BEGIN SELECT RAISE(ABORT, 'giro_audit only grows: a row must continue the chain'); END`;

const POSTGRES_TRUNCATE_TRIGGER = `CREATE TRIGGER "TRG_giro_audit_no_truncate" BEFORE TRUNCATE ON "giro_audit"
   FOR EACH STATEMENT EXECUTE FUNCTION "giro_refuse_audit_change"()`;

export class AuditTrailSealed1797364800000 implements MigrationInterface {
  name = 'AuditTrailSealed1797364800000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      engineOf(queryRunner.connection) === 'sqlite' ? SQLITE_CHAIN_TRIGGER : POSTGRES_TRUNCATE_TRIGGER,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      engineOf(queryRunner.connection) === 'sqlite'
        ? 'DROP TRIGGER "TRG_giro_audit_continues_chain"'
        : 'DROP TRIGGER "TRG_giro_audit_no_truncate" ON "giro_audit"',
    );
  }
}
