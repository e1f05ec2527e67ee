import type { MigrationInterface, QueryRunner } from 'typeorm';
import { engineOf } from '../engine/database-engine';

// SQLite: the description's FTS5 index of a new movement is written by the transaction that inserts it, in one
// statement for all its movements just before its COMMIT (engine/sqlite-text-index.ts), no longer by a trigger on
// each insert: FTS5 writes what it holds as a new segment at every SAVEPOINT, and the group commit takes one around
// each transaction it runs. The update and delete triggers stay. Postgres: nothing (its trigram index is an index).

export class TextIndexAtCommit1798747200000 implements MigrationInterface {
  name = 'TextIndexAtCommit1798747200000';

  async up(queryRunner: QueryRunner): Promise<void> {
    if (engineOf(queryRunner.connection) !== 'sqlite') return;
    await queryRunner.query('DROP TRIGGER "TRG_giro_movement_text_insert"');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    if (engineOf(queryRunner.connection) !== 'sqlite') return;
    await queryRunner.query(`CREATE TRIGGER "TRG_giro_movement_text_insert" AFTER INSERT ON "giro_movements" BEGIN
    INSERT INTO "giro_movement_text" ("rowid", "description") VALUES (new."origin_id", new."description");
  END`);
    // Rows others inserted meanwhile are in the table and not in the index: read it all again, as the trigger would
    // have had it.
    await queryRunner.query(`INSERT INTO "giro_movement_text" ("giro_movement_text") VALUES ('rebuild')`);
  }
}
