import type { MigrationInterface, QueryRunner } from 'typeorm';
import { engineOf } from '../engine/database-engine';

// The whole schema of giro, for SQLite and Postgres in one migration so that both engines share one
// ordered list. Only the id column of the history, the append-only triggers and a few spellings differ.
// Literal DDL only: no value of the outside world is ever part of these statements.

// A migration is a snapshot: the statuses are spelled out here, not imported from the domain.
const STATUS_CHECK = `"status" IN ('PENDING', 'CREATED', 'IN_PROGRESS', 'DELAYED', 'COMPLETED', 'FAILED')`;

const movementColumns = `
  "origin_id" bigint NOT NULL,
  "intent" text NOT NULL,
  "fingerprint" varchar(64) NOT NULL,
  "status" varchar(16) NOT NULL,
  "amount" varchar(32) NOT NULL,
  "currency_id" varchar(3) NOT NULL,
  "bank_movement_id" text,
  "network_id" text,
  "network" text,
  "posting_datetime" text,
  "completed_datetime" text,
  "last_bank_answer" text,
  "attempts" integer NOT NULL DEFAULT 0,
  "queries" integer NOT NULL DEFAULT 0,
  "last_error" text,
  "last_answer_at_ms" bigint,
  "next_query_at_ms" bigint,
  "lease_owner" varchar(200),
  "lease_expires_at_ms" bigint,
  "version" integer NOT NULL DEFAULT 1,
  "created_at_ms" bigint NOT NULL,
  "updated_at_ms" bigint NOT NULL,
  CONSTRAINT "PK_giro_movements" PRIMARY KEY ("origin_id"),
  CONSTRAINT "CHK_giro_movements_status" CHECK (${STATUS_CHECK})`;

const historyColumns = (idColumn: string) => `
  ${idColumn},
  "origin_id" bigint NOT NULL,
  "from_status" varchar(16),
  "to_status" varchar(16) NOT NULL,
  "at_ms" bigint NOT NULL,
  "source" varchar(16) NOT NULL,
  "detail" text,
  CONSTRAINT "FK_giro_movement_history_movement" FOREIGN KEY ("origin_id")
    REFERENCES "giro_movements" ("origin_id") ON DELETE RESTRICT ON UPDATE NO ACTION`;

const cancellationColumns = `
  "origin_id" bigint NOT NULL,
  "amount" varchar(32) NOT NULL,
  "currency_id" varchar(3) NOT NULL,
  "reason_code" text,
  "reason_message" text,
  "created_at_ms" bigint NOT NULL,
  "acknowledged_at_ms" bigint,
  CONSTRAINT "PK_giro_cancellations" PRIMARY KEY ("origin_id"),
  CONSTRAINT "FK_giro_cancellations_movement" FOREIGN KEY ("origin_id")
    REFERENCES "giro_movements" ("origin_id") ON DELETE RESTRICT ON UPDATE NO ACTION`;

const counterColumns = `
  "name" varchar(32) NOT NULL,
  "next_value" bigint NOT NULL,
  CONSTRAINT "PK_giro_origin_id_counter" PRIMARY KEY ("name")`;

const indexes = [
  'CREATE INDEX "IDX_giro_movements_due" ON "giro_movements" ("status", "next_query_at_ms")',
  'CREATE INDEX "IDX_giro_movements_network_id" ON "giro_movements" ("network_id")',
  'CREATE INDEX "IDX_giro_movement_history_origin_id" ON "giro_movement_history" ("origin_id")',
  'CREATE INDEX "IDX_giro_cancellations_acknowledged_at" ON "giro_cancellations" ("acknowledged_at_ms")',
];

const APPEND_ONLY_MESSAGE = 'giro_movement_history is append-only';

const sqliteUp = [
  `CREATE TABLE "giro_movements" (${movementColumns})`,
  // SQLite allows AUTOINCREMENT only on "integer PRIMARY KEY" (a 64-bit rowid).
  `CREATE TABLE "giro_movement_history" (${historyColumns('"id" integer PRIMARY KEY AUTOINCREMENT NOT NULL')})`,
  `CREATE TABLE "giro_cancellations" (${cancellationColumns})`,
  `CREATE TABLE "giro_origin_id_counter" (${counterColumns})`,
  ...indexes,
  `CREATE TRIGGER "TRG_giro_movement_history_no_update" BEFORE UPDATE ON "giro_movement_history"
   BEGIN SELECT RAISE(ABORT, '${APPEND_ONLY_MESSAGE}'); END`,
  `CREATE TRIGGER "TRG_giro_movement_history_no_delete" BEFORE DELETE ON "giro_movement_history"
   BEGIN SELECT RAISE(ABORT, '${APPEND_ONLY_MESSAGE}'); END`,
];

const sqliteDown = [
  'DROP TRIGGER "TRG_giro_movement_history_no_delete"',
  'DROP TRIGGER "TRG_giro_movement_history_no_update"',
  'DROP TABLE "giro_origin_id_counter"',
  'DROP TABLE "giro_cancellations"',
  'DROP TABLE "giro_movement_history"',
  'DROP TABLE "giro_movements"',
];

const postgresUp = [
  `CREATE TABLE "giro_movements" (${movementColumns})`,
  `CREATE TABLE "giro_movement_history" (${historyColumns('"id" BIGSERIAL NOT NULL')},
    CONSTRAINT "PK_giro_movement_history" PRIMARY KEY ("id"))`,
  `CREATE TABLE "giro_cancellations" (${cancellationColumns})`,
  `CREATE TABLE "giro_origin_id_counter" (${counterColumns})`,
  ...indexes,
  `CREATE FUNCTION "giro_refuse_history_change"() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN RAISE EXCEPTION '${APPEND_ONLY_MESSAGE}'; END $$`,
  `CREATE TRIGGER "TRG_giro_movement_history_append_only" BEFORE UPDATE OR DELETE ON "giro_movement_history"
   FOR EACH ROW EXECUTE FUNCTION "giro_refuse_history_change"()`,
];

const postgresDown = [
  'DROP TABLE "giro_origin_id_counter"',
  'DROP TABLE "giro_cancellations"',
  'DROP TABLE "giro_movement_history"',
  'DROP FUNCTION "giro_refuse_history_change"()',
  'DROP TABLE "giro_movements"',
];

export class CreateTransferSchema1795291200000 implements MigrationInterface {
  name = 'CreateTransferSchema1795291200000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await runAll(queryRunner, engineOf(queryRunner.connection) === 'sqlite' ? sqliteUp : postgresUp);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await runAll(queryRunner, engineOf(queryRunner.connection) === 'sqlite' ? sqliteDown : postgresDown);
  }
}

async function runAll(queryRunner: QueryRunner, statements: readonly string[]): Promise<void> {
  for (const statement of statements) await queryRunner.query(statement);
}
