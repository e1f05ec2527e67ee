import type { MigrationInterface, QueryRunner } from 'typeorm';
import { engineOf } from '../engine/database-engine';

// A debit of the bank's statement that no transfer explains is an anomaly like a transfer's, listed and resolved
// with them — but it has no transfer, so no history row to be: `giro_unknown_debits` holds one row per bank line
// (the first statement line that showed it) and its time; once an operator closed it, who, when and why is a row of
// `giro_unknown_debit_resolutions`, as a transfer's anomaly's is of `giro_anomaly_resolutions`. Tables of their
// own, not the history's: nothing about a movement.
// - The anomaly list reads both kinds newest first (time, then id): the index of the history's anomaly rows is
//   by time now (it was by id), and the unknown debits have theirs.
// - The unknown debits of the statements imported before are filled in, each bank line (account, date, amount,
//   reference) once, from its first line, at its import's time.

const id = { sqlite: '"id" integer PRIMARY KEY AUTOINCREMENT NOT NULL', postgres: '"id" BIGSERIAL NOT NULL' };
const primaryKey = { sqlite: '', postgres: ',\n  CONSTRAINT "PK_giro_unknown_debits" PRIMARY KEY ("id")' };

export class UnknownDebits1798056000000 implements MigrationInterface {
  name = 'UnknownDebits1798056000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const engine = engineOf(queryRunner.connection);
    await queryRunner.query(`CREATE TABLE "giro_unknown_debits" (
  ${id[engine]},
  "import_id" varchar(36) NOT NULL,
  "line_number" integer NOT NULL,
  "at_ms" bigint NOT NULL${primaryKey[engine]},
  CONSTRAINT "FK_giro_unknown_debits_line" FOREIGN KEY ("import_id", "line_number")
    REFERENCES "giro_statement_lines" ("import_id", "line_number") ON DELETE RESTRICT ON UPDATE NO ACTION)`);
    await queryRunner.query(
      'CREATE UNIQUE INDEX "UQ_giro_unknown_debits_line" ON "giro_unknown_debits" ("import_id", "line_number")',
    );
    await queryRunner.query('CREATE INDEX "IDX_giro_unknown_debits_at" ON "giro_unknown_debits" ("at_ms", "id")');
    await queryRunner.query(`CREATE TABLE "giro_unknown_debit_resolutions" (
  "unknown_debit_id" bigint NOT NULL,
  "resolved_at_ms" bigint NOT NULL,
  "resolved_by_key_id" varchar(64) NOT NULL,
  "resolved_by_name" varchar(64) NOT NULL,
  "note" text NOT NULL,
  CONSTRAINT "PK_giro_unknown_debit_resolutions" PRIMARY KEY ("unknown_debit_id"),
  CONSTRAINT "FK_giro_unknown_debit_resolutions_debit" FOREIGN KEY ("unknown_debit_id")
    REFERENCES "giro_unknown_debits" ("id") ON DELETE RESTRICT ON UPDATE NO ACTION)`);
    await queryRunner.query('DROP INDEX "IDX_giro_movement_history_anomalies"');
    await queryRunner.query(
      `CREATE INDEX "IDX_giro_movement_history_anomalies_at" ON "giro_movement_history" ("at_ms", "id")
  WHERE "source" = 'anomaly'`,
    );
    await queryRunner.query(`INSERT INTO "giro_unknown_debits" ("import_id", "line_number", "at_ms")
  SELECT "import_id", "line_number", "created_at_ms" FROM (
    SELECT l."import_id", l."line_number", i."created_at_ms", ROW_NUMBER() OVER (
      PARTITION BY l."account", l."line_date", l."amount_cents", l."reference"
      ORDER BY i."created_at_ms", l."import_id", l."line_number") AS "seen"
    FROM "giro_statement_lines" l JOIN "giro_statement_imports" i ON i."id" = l."import_id"
    WHERE l."outcome" = 'unknown_debit') "lines"
  WHERE "seen" = 1 ORDER BY "created_at_ms", "import_id", "line_number"`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX "IDX_giro_movement_history_anomalies_at"');
    await queryRunner.query(
      `CREATE INDEX "IDX_giro_movement_history_anomalies" ON "giro_movement_history" ("id") WHERE "source" = 'anomaly'`,
    );
    await queryRunner.query('DROP TABLE "giro_unknown_debit_resolutions"');
    await queryRunner.query('DROP TABLE "giro_unknown_debits"');
  }
}
