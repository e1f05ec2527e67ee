import type { MigrationInterface, QueryRunner } from 'typeorm';
import { engineOf } from '../engine/database-engine';

// The payee book: one row per destination account (CBU/CVU), learned from the bank's final answers and kept by
// hand (a label, blocked, approved as a payee). Its own table, keyed by the address: the movements stay as they
// are, and the create path reads one row by its primary key.
// - The holder's name and CUIT as the bank reported them beside the CUIT giro asked for: a payee whose bank
//   answers name someone else shows it. `previous_names` (a JSON array) keeps the names the bank gave before.
// - `name_key` and `label_key`: the name and the label folded (lower case, no accents) by giro, so that a search
//   by a prefix reads an index on both engines. On Postgres the searched columns sort by bytes (COLLATE "C"): a
//   range over a prefix is then the prefix's rows whatever the database's locale.

/** The statements, per engine: the step runs them, and the baseline (a fresh database) runs the same text. */
export const PAYEE_SCHEMA: Record<'sqlite' | 'postgres', string[]> = {
  sqlite: payeeStatements(''),
  postgres: payeeStatements(' COLLATE "C"'),
};

function payeeStatements(byteOrder: string): string[] {
  return [
    `CREATE TABLE "giro_payees" (
  "address" varchar(22)${byteOrder} NOT NULL,
  "requested_person_id" varchar(11)${byteOrder},
  "holder_person_id" varchar(11)${byteOrder},
  "holder_name" text,
  "name_key" text${byteOrder},
  "previous_names" text,
  "name_changed_at_ms" bigint,
  "label" text,
  "label_key" text${byteOrder},
  "first_paid_at_ms" bigint,
  "last_paid_at_ms" bigint,
  "completed_count" bigint NOT NULL DEFAULT 0,
  "completed_cents" bigint NOT NULL DEFAULT 0,
  "approved_at_ms" bigint,
  "approved_by_key_id" varchar(64),
  "approved_by_name" varchar(64),
  "blocked_at_ms" bigint,
  "blocked_by_key_id" varchar(64),
  "blocked_by_name" varchar(64),
  "created_at_ms" bigint NOT NULL,
  "updated_at_ms" bigint NOT NULL,
  CONSTRAINT "PK_giro_payees" PRIMARY KEY ("address"))`,
    `CREATE INDEX "IDX_giro_payees_requested_person" ON "giro_payees" ("requested_person_id", "address")`,
    `CREATE INDEX "IDX_giro_payees_holder_person" ON "giro_payees" ("holder_person_id", "address")`,
    `CREATE INDEX "IDX_giro_payees_name" ON "giro_payees" ("name_key", "address")`,
    `CREATE INDEX "IDX_giro_payees_label" ON "giro_payees" ("label_key", "address")`,
  ];
}

export class Payees1797451200000 implements MigrationInterface {
  name = 'Payees1797451200000';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const statement of PAYEE_SCHEMA[engineOf(queryRunner.connection)]) await queryRunner.query(statement);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE "giro_payees"');
  }
}
