import type { MigrationInterface, QueryRunner } from 'typeorm';
import { engineOf } from '../engine/database-engine';

// Text in a description found by an index: without one, a search for a text that few movements hold reads the
// whole table along the creation time, a time that grows with the table.
// Both engines index the description's trigrams, the three-character pieces any text of three characters or more
// is made of, case folded; neither index is an entity's (TypeORM declares neither kind).
//
// SQLite: an FTS5 table with the trigram tokenizer over the descriptions (external content: the text stays in
// giro_movements only), kept by triggers. movement-search-query.ts asks it when a text is rare. A migration that
// rebuilds giro_movements must drop these triggers and create them again.
//
// Postgres: a GIN index of pg_trgm over LOWER("description"), which the planner uses for `LIKE '%…%'` itself. The
// extension is created when it is missing; where the database's role may not create it (it is a trusted extension
// from Postgres 13: a role with CREATE on the database may), the index is left out and text is searched as before.
// `CREATE EXTENSION pg_trgm` by a superuser, then this migration's CREATE INDEX, add it later.

const SQLITE_UP = [
  `CREATE VIRTUAL TABLE "giro_movement_text" USING fts5("description", content='giro_movements', content_rowid='origin_id', tokenize='trigram')`,
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
  // The movements stored before: read from giro_movements into the index.
  `INSERT INTO "giro_movement_text" ("giro_movement_text") VALUES ('rebuild')`,
];

const SQLITE_DOWN = [
  'DROP TRIGGER "TRG_giro_movement_text_delete"',
  'DROP TRIGGER "TRG_giro_movement_text_update"',
  'DROP TRIGGER "TRG_giro_movement_text_insert"',
  'DROP TABLE "giro_movement_text"',
];

/**
 * What Postgres answers when pg_trgm cannot be used: the role may not create it (42501), the server has no
 * pg_trgm (58P01), or it is installed in a schema off the search path, so gin_trgm_ops is unknown (42704).
 */
const CANNOT_CREATE_TRIGRAMS = new Set(['42501', '58P01', '42704']);

export const POSTGRES_TEXT_INDEX = 'IDX_giro_movements_description_trgm';

/** Runs statements that need pg_trgm, all or none: none, and no error, where pg_trgm cannot be used. */
export async function unlessTrigramsCannotBeUsed(queryRunner: QueryRunner, statements: string[]): Promise<void> {
  // Migrations run in one transaction (unless a host chose otherwise): a savepoint keeps the others when the
  // extension cannot be created.
  const savepoint = queryRunner.isTransactionActive;
  if (savepoint) await queryRunner.query('SAVEPOINT "giro_trigrams"');
  try {
    for (const statement of statements) await queryRunner.query(statement);
    if (savepoint) await queryRunner.query('RELEASE SAVEPOINT "giro_trigrams"');
  } catch (error) {
    if (!CANNOT_CREATE_TRIGRAMS.has((error as { driverError?: { code?: string } }).driverError?.code ?? ''))
      throw error;
    if (savepoint) await queryRunner.query('ROLLBACK TO SAVEPOINT "giro_trigrams"');
  }
}

export class MovementText1796760000000 implements MigrationInterface {
  name = 'MovementText1796760000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    if (engineOf(queryRunner.connection) === 'sqlite') {
      for (const statement of SQLITE_UP) await queryRunner.query(statement);
      return;
    }
    await unlessTrigramsCannotBeUsed(queryRunner, [
      'CREATE EXTENSION IF NOT EXISTS pg_trgm',
      `CREATE INDEX "${POSTGRES_TEXT_INDEX}" ON "giro_movements" USING gin (LOWER("description") gin_trgm_ops)`,
    ]);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    if (engineOf(queryRunner.connection) === 'sqlite') {
      for (const statement of SQLITE_DOWN) await queryRunner.query(statement);
      return;
    }
    // The extension stays: other tables of the database may use it.
    await queryRunner.query(`DROP INDEX IF EXISTS "${POSTGRES_TEXT_INDEX}"`);
  }
}
