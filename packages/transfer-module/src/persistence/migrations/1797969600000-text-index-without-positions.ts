import type { MigrationInterface, QueryRunner } from 'typeorm';
import { engineOf } from '../engine/database-engine';

// SQLite: the description's FTS5 trigram index keeps, for each trigram, the movements that hold it and nothing more
// (detail=none: no column or position; columnsize=0: no count of each movement's trigrams). The search asks it for
// the movements that hold every trigram of a text and lets its LIKE decide (sqlite-movement-search.ts), which needs
// no positions; each created transfer then writes a fraction of what the positions and the sizes cost.
// Postgres: nothing (its trigram index keeps no positions).

const TRIGGERS_DROPPED = [
  'DROP TRIGGER "TRG_giro_movement_text_insert"',
  'DROP TRIGGER "TRG_giro_movement_text_update"',
  'DROP TRIGGER "TRG_giro_movement_text_delete"',
  'DROP TABLE "giro_movement_text"',
];

/** The FTS5 table with `options` after its tokenizer, its triggers, and the movements stored so far read into it. */
function textIndex(options: string): string[] {
  return [
    `CREATE VIRTUAL TABLE "giro_movement_text" USING fts5("description", content='giro_movements', content_rowid='origin_id', tokenize='trigram'${options})`,
    `CREATE TRIGGER "TRG_giro_movement_text_insert" AFTER INSERT ON "giro_movements" BEGIN
    INSERT INTO "giro_movement_text" ("rowid", "description") VALUES (new."origin_id", new."description");
  END`,
    `CREATE TRIGGER "TRG_giro_movement_text_update" AFTER UPDATE OF "description" ON "giro_movements" BEGIN
    INSERT INTO "giro_movement_text" ("giro_movement_text", "rowid", "description") VALUES ('delete', old."origin_id", old."description");
    INSERT INTO "giro_movement_text" ("rowid", "description") VALUES (new."origin_id", new."description");
  END`,
    `CREATE TRIGGER "TRG_giro_movement_text_delete" AFTER DELETE ON "giro_movements" BEGIN
    INSERT INTO "giro_movement_text" ("giro_movement_text", "rowid", "description") VALUES ('delete', old."origin_id", old."description");
  END`,
    `INSERT INTO "giro_movement_text" ("giro_movement_text") VALUES ('rebuild')`,
  ];
}

export class TextIndexWithoutPositions1797969600000 implements MigrationInterface {
  name = 'TextIndexWithoutPositions1797969600000';

  async up(queryRunner: QueryRunner): Promise<void> {
    if (engineOf(queryRunner.connection) !== 'sqlite') return;
    for (const statement of [...TRIGGERS_DROPPED, ...textIndex(", detail='none', columnsize=0")]) {
      await queryRunner.query(statement);
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    if (engineOf(queryRunner.connection) !== 'sqlite') return;
    for (const statement of [...TRIGGERS_DROPPED, ...textIndex('')]) await queryRunner.query(statement);
  }
}
