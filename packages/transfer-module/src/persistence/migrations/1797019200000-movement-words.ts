import type { MigrationInterface, QueryRunner } from 'typeorm';
import { engineOf } from '../engine/database-engine';
import { unlessTrigramsCannotBeUsed } from './1796760000000-movement-text';

// Postgres: each word's movements in creation order, for a text few movements hold. The trigram index finds them
// in no order, so the newest page of the movements holding a rare word read every one of their rows to sort
// them, most of the query's time. Here each word of a description (a run of letters or
// digits of LOWER("description")) has a row with the movement's creation time, and the primary key keeps a word's
// movements in that order: the page is read from that index alone. The vocabulary, each word once, has a trigram
// index, so the words that contain a text (embargo, embargos, desembargo) are found first. Kept by triggers on the
// movement's insert and on a change of its description or creation time (giro changes neither; a movement is never
// deleted: its history, append-only, refers to it).
// SQLite's FTS5 index (MovementText1796760000000) answers such a text there.

const WORDS_OF = (row: 'NEW' | 'OLD' | 'm') =>
  `regexp_split_to_table(LOWER(${row}."description"), '[^[:alnum:]]+') AS "w"("word")`;

/** The rows of the movements already stored, and their words: run once by the migration (the bench's seed too). */
export const POSTGRES_WORDS_BACKFILL = [
  `INSERT INTO "giro_movement_words" ("word", "created_at_ms", "origin_id")
   SELECT DISTINCT "w"."word", "m"."created_at_ms", "m"."origin_id" FROM "giro_movements" "m", ${WORDS_OF('m')}
   WHERE "w"."word" <> '' ORDER BY 1, 2, 3`,
  `INSERT INTO "giro_words" ("word") SELECT DISTINCT "word" FROM "giro_movement_words" ORDER BY 1
   ON CONFLICT DO NOTHING`,
];

const KEEP_WORDS = `CREATE FUNCTION "giro_movement_words_kept"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' THEN
    DELETE FROM "giro_movement_words"
    WHERE "word" IN (SELECT "w"."word" FROM ${WORDS_OF('OLD')})
      AND "created_at_ms" = OLD."created_at_ms" AND "origin_id" = OLD."origin_id";
  END IF;
  -- One statement: the description split once, for the vocabulary and the movement's rows.
  WITH "new_words" AS (SELECT DISTINCT "w"."word" FROM ${WORDS_OF('NEW')} WHERE "w"."word" <> ''),
    "vocabulary" AS (INSERT INTO "giro_words" ("word") SELECT "word" FROM "new_words" ON CONFLICT DO NOTHING)
  INSERT INTO "giro_movement_words" ("word", "created_at_ms", "origin_id")
  SELECT "word", NEW."created_at_ms", NEW."origin_id" FROM "new_words";
  RETURN NULL;
END
$$`;

const POSTGRES_UP = [
  `CREATE TABLE "giro_movement_words" ("word" text NOT NULL, "created_at_ms" bigint NOT NULL, "origin_id" bigint NOT NULL)`,
  `CREATE TABLE "giro_words" ("word" text NOT NULL, CONSTRAINT "PK_giro_words" PRIMARY KEY ("word"))`,
  ...POSTGRES_WORDS_BACKFILL,
  // After the rows: one sorted build instead of an insert into the index for each of them.
  `ALTER TABLE "giro_movement_words" ADD CONSTRAINT "PK_giro_movement_words" PRIMARY KEY ("word", "created_at_ms", "origin_id")`,
  KEEP_WORDS,
  `CREATE TRIGGER "TRG_giro_movement_words_insert" AFTER INSERT ON "giro_movements"
   FOR EACH ROW EXECUTE FUNCTION "giro_movement_words_kept"()`,
  `CREATE TRIGGER "TRG_giro_movement_words_update" AFTER UPDATE OF "description", "created_at_ms" ON "giro_movements"
   FOR EACH ROW WHEN (OLD."description" IS DISTINCT FROM NEW."description" OR OLD."created_at_ms" <> NEW."created_at_ms")
   EXECUTE FUNCTION "giro_movement_words_kept"()`,
];

export const POSTGRES_VOCABULARY_INDEX = 'IDX_giro_words_trgm';

export class MovementWords1797019200000 implements MigrationInterface {
  name = 'MovementWords1797019200000';

  async up(queryRunner: QueryRunner): Promise<void> {
    if (engineOf(queryRunner.connection) !== 'postgres') return;
    for (const statement of POSTGRES_UP) await queryRunner.query(statement);
    // Without pg_trgm (MovementText1796760000000) the vocabulary is read whole.
    await unlessTrigramsCannotBeUsed(queryRunner, [
      `CREATE INDEX "${POSTGRES_VOCABULARY_INDEX}" ON "giro_words" USING gin ("word" gin_trgm_ops)`,
    ]);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    if (engineOf(queryRunner.connection) !== 'postgres') return;
    for (const trigger of ['insert', 'update']) {
      await queryRunner.query(`DROP TRIGGER "TRG_giro_movement_words_${trigger}" ON "giro_movements"`);
    }
    await queryRunner.query('DROP FUNCTION "giro_movement_words_kept"()');
    await queryRunner.query('DROP TABLE "giro_words"');
    await queryRunner.query('DROP TABLE "giro_movement_words"');
  }
}
