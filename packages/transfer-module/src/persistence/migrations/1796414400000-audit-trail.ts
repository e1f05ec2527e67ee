import type { MigrationInterface, QueryRunner } from 'typeorm';
import { engineOf } from '../engine/database-engine';

// The audit trail: one row per request that changes something, or tried to — who, what, when, from
// where, and how it ended —, written in the same transaction as the change. Each row carries a hash chained to the
// previous row's (persistence/audit-trail.ts). `seq` is assigned by the writer as the previous row's plus one, under
// one lock (Postgres: an advisory lock; SQLite: the write lock), never by a sequence: a sequence would hand out
// numbers outside that order and leave gaps on rollback, and a gap must mean a deleted row.
// The table is append-only (triggers, as for the history): an UPDATE or DELETE is refused; whoever drops the
// triggers to change a row breaks the chain, which `giro-reconciler audit verify` reports.
// Indexes for the list's filters (GET /admin/audit): by transfer, by actor (key id or name), by time.

const APPEND_ONLY_MESSAGE = 'giro_audit is append-only';

const createTable = `CREATE TABLE "giro_audit" (
  "seq" bigint NOT NULL,
  "at_ms" bigint NOT NULL,
  "actor_key_id" varchar(64),
  "actor_name" varchar(64),
  "actor_role" varchar(16),
  "action" varchar(64) NOT NULL,
  "origin_id" bigint,
  "target" text,
  "before" text,
  "after" text,
  "request_id" varchar(200) NOT NULL,
  "client_address" varchar(100),
  "outcome" varchar(8) NOT NULL,
  "status_code" integer,
  "error" text,
  "prev_hash" varchar(64) NOT NULL,
  "hash" varchar(64) NOT NULL,
  CONSTRAINT "PK_giro_audit" PRIMARY KEY ("seq"),
  CONSTRAINT "CHK_giro_audit_outcome" CHECK ("outcome" IN ('ok', 'refused'))
)`;

const indexes = [
  'CREATE INDEX "IDX_giro_audit_origin_id" ON "giro_audit" ("origin_id", "seq")',
  'CREATE INDEX "IDX_giro_audit_actor_key_id" ON "giro_audit" ("actor_key_id", "seq")',
  'CREATE INDEX "IDX_giro_audit_actor_name" ON "giro_audit" ("actor_name", "seq")',
  'CREATE INDEX "IDX_giro_audit_at_ms" ON "giro_audit" ("at_ms")',
];

const sqliteUp = [
  createTable,
  ...indexes,
  `CREATE TRIGGER "TRG_giro_audit_no_update" BEFORE UPDATE ON "giro_audit"
   BEGIN SELECT RAISE(ABORT, '${APPEND_ONLY_MESSAGE}'); END`,
  `CREATE TRIGGER "TRG_giro_audit_no_delete" BEFORE DELETE ON "giro_audit"
   BEGIN SELECT RAISE(ABORT, '${APPEND_ONLY_MESSAGE}'); END`,
];

const postgresUp = [
  createTable,
  ...indexes,
  `CREATE FUNCTION "giro_refuse_audit_change"() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN RAISE EXCEPTION '${APPEND_ONLY_MESSAGE}'; END $$`,
  `CREATE TRIGGER "TRG_giro_audit_append_only" BEFORE UPDATE OR DELETE ON "giro_audit"
   FOR EACH ROW EXECUTE FUNCTION "giro_refuse_audit_change"()`,
];

// Dropping the table drops its triggers and indexes.
const sqliteDown = ['DROP TABLE "giro_audit"'];
const postgresDown = ['DROP TABLE "giro_audit"', 'DROP FUNCTION "giro_refuse_audit_change"()'];

export class AuditTrail1796414400000 implements MigrationInterface {
  name = 'AuditTrail1796414400000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const statements = engineOf(queryRunner.connection) === 'sqlite' ? sqliteUp : postgresUp;
    for (const statement of statements) await queryRunner.query(statement);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const statements = engineOf(queryRunner.connection) === 'sqlite' ? sqliteDown : postgresDown;
    for (const statement of statements) await queryRunner.query(statement);
  }
}
