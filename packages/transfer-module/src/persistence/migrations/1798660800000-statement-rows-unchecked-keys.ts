import type { MigrationInterface, QueryRunner } from 'typeorm';
import { engineOf } from '../engine/database-engine';

// A statement's lines and its unknown debits are written by its import only, in the transaction that writes the
// rows they name (the import's row, then each line before its unknown debit), and nothing deletes either. On Postgres
// their foreign keys checked that again for every row: a probe of the parent's index and a lock on the parent row
// (`FOR KEY SHARE`), a large share of the server's work for an import (BENCHMARKS.md). Dropped there. SQLite keeps
// them: its check is a probe of a B-tree the same connection just wrote, without a row lock, and dropping a
// constraint there means rebuilding the table.

export class StatementRowsUncheckedKeys1798660800000 implements MigrationInterface {
  name = 'StatementRowsUncheckedKeys1798660800000';

  async up(queryRunner: QueryRunner): Promise<void> {
    if (engineOf(queryRunner.connection) !== 'postgres') return;
    await queryRunner.query('ALTER TABLE "giro_unknown_debits" DROP CONSTRAINT "FK_giro_unknown_debits_line"');
    await queryRunner.query('ALTER TABLE "giro_statement_lines" DROP CONSTRAINT "FK_giro_statement_lines_import"');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    if (engineOf(queryRunner.connection) !== 'postgres') return;
    await queryRunner.query(`ALTER TABLE "giro_statement_lines" ADD CONSTRAINT "FK_giro_statement_lines_import"
  FOREIGN KEY ("import_id") REFERENCES "giro_statement_imports" ("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "giro_unknown_debits" ADD CONSTRAINT "FK_giro_unknown_debits_line"
  FOREIGN KEY ("import_id", "line_number") REFERENCES "giro_statement_lines" ("import_id", "line_number")
  ON DELETE RESTRICT ON UPDATE NO ACTION`);
  }
}
