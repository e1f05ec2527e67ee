import type { MigrationInterface, QueryRunner } from 'typeorm';

// The bank's statements, imported to be matched against the transfers: one row per import (its file's sha-256,
// unique per account, makes a second import of the same file answer the first), one row per statement line.
// - `origin_id`: the transfer a line names (its reference is the transfer's networkId, else its originId).
// - `matched_origin_id`: set on the one line that confirms that transfer; unique, so a transfer is confirmed by
//   at most one line whatever the imports. The same bank line in an overlapping statement (same account, date,
//   amount and reference) names the transfer again without this column: it is the line already counted; a debit
//   no transfer explains is announced once per bank line, looked up by its account and reference.
// - `outcome`: matched, amount_mismatch, unknown_debit, ambiguous, already_matched, or credit (not matched).
// - Amounts in signed cents (a debit is negative), dates as the statement's `YYYY-MM-DD`.
// - Accounts and references are compared for equality only, in the database's collation: a parameter compared
//   with them reads the indexes on both engines.

/** The statements the step runs, the same on both engines. */
export const STATEMENT_SCHEMA: string[] = [
  `CREATE TABLE "giro_statement_imports" (
  "id" varchar(36) NOT NULL,
  "account" varchar(22) NOT NULL,
  "sha256" varchar(64) NOT NULL,
  "period_from" varchar(10),
  "period_to" varchar(10),
  "line_count" integer NOT NULL,
  "matched_count" integer NOT NULL,
  "only_in_statement_count" integer NOT NULL,
  "only_in_giro_count" integer NOT NULL,
  "amount_mismatch_count" integer NOT NULL,
  "created_at_ms" bigint NOT NULL,
  "created_by_key_id" varchar(64),
  "created_by_name" varchar(64),
  CONSTRAINT "PK_giro_statement_imports" PRIMARY KEY ("id"))`,
  `CREATE UNIQUE INDEX "UQ_giro_statement_imports_file" ON "giro_statement_imports" ("account", "sha256")`,
  `CREATE INDEX "IDX_giro_statement_imports_created" ON "giro_statement_imports" ("created_at_ms", "id")`,
  `CREATE TABLE "giro_statement_lines" (
  "import_id" varchar(36) NOT NULL,
  "line_number" integer NOT NULL,
  "account" varchar(22) NOT NULL,
  "line_date" varchar(10) NOT NULL,
  "amount_cents" bigint NOT NULL,
  "reference" text NOT NULL,
  "description" text,
  "outcome" varchar(16) NOT NULL,
  "origin_id" bigint,
  "matched_origin_id" bigint,
  CONSTRAINT "PK_giro_statement_lines" PRIMARY KEY ("import_id", "line_number"),
  CONSTRAINT "FK_giro_statement_lines_import" FOREIGN KEY ("import_id")
    REFERENCES "giro_statement_imports" ("id") ON DELETE RESTRICT ON UPDATE NO ACTION)`,
  `CREATE UNIQUE INDEX "UQ_giro_statement_lines_matched" ON "giro_statement_lines" ("matched_origin_id")
  WHERE "matched_origin_id" IS NOT NULL`,
  `CREATE INDEX "IDX_giro_statement_lines_unknown" ON "giro_statement_lines" ("reference", "account")
  WHERE "outcome" = 'unknown_debit'`,
  `CREATE INDEX "IDX_giro_statement_lines_origin" ON "giro_statement_lines" ("origin_id") WHERE "origin_id" IS NOT NULL`,
];

export class Statements1797624000000 implements MigrationInterface {
  name = 'Statements1797624000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const statement of STATEMENT_SCHEMA) await queryRunner.query(statement);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE "giro_statement_lines"');
    await queryRunner.query('DROP TABLE "giro_statement_imports"');
  }
}
