import type { MigrationInterface, QueryRunner } from 'typeorm';
import { engineOf } from '../engine/database-engine';
import { MovementWords1797019200000 } from './1797019200000-movement-words';

// The search reads the engines' own indexes (search/): one B-tree per filter that leads with its value and goes on
// in the page's order, the creation time's for the rest, and the description's trigrams (FTS5 on SQLite, pg_trgm
// on Postgres). What came to answer faster than a person needs goes: the words of the descriptions kept by a
// trigger (Postgres), and the description the amount's index carried. Every index is written with every created
// transfer, and on Postgres with every update (an answer moves the indexed next_query_at_ms, so no update is HOT):
// fewer and narrower is cheaper.
// Kept as they are, because a search read rows instead of index entries without them (many rows for a page, most
// of them outside the cache on a large table): the creation time's index ends with the amount
// and the description (a common text within an amount range, checked along the page's order), the status's with
// the amount, and the (status, amount_cents, …) index (a status within a narrow amount range). Wider than the other
// filters' indexes, the status's is the one SQLite leaves when a status comes with another filter: without
// statistics SQLite weighs two equalities alike and prefers the narrower index, and a status is the least
// selective of the filters.

const AMOUNT_INDEX = 'IDX_giro_movements_amount';
/** The amount's index now goes on in the page's order and no further; before, it ended with the description. */
const AMOUNT_COLUMNS = '"amount_cents", "created_at_ms", "origin_id"';
const AMOUNT_COLUMNS_BEFORE = '"amount_cents", "created_at_ms", "origin_id", "description"';

const POSTGRES_WORDS_DROPPED = [
  'DROP TRIGGER IF EXISTS "TRG_giro_movement_words_update" ON "giro_movements"',
  'DROP TRIGGER IF EXISTS "TRG_giro_movement_words_insert" ON "giro_movements"',
  'DROP FUNCTION IF EXISTS "giro_movement_words_kept"()',
  'DROP TABLE IF EXISTS "giro_words"',
  'DROP TABLE IF EXISTS "giro_movement_words"',
];

export class SearchOnEngineIndexes1797192000000 implements MigrationInterface {
  name = 'SearchOnEngineIndexes1797192000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    if (engineOf(queryRunner.connection) === 'postgres') {
      for (const statement of POSTGRES_WORDS_DROPPED) await queryRunner.query(statement);
    }
    await queryRunner.query(`DROP INDEX "${AMOUNT_INDEX}"`);
    await queryRunner.query(`CREATE INDEX "${AMOUNT_INDEX}" ON "giro_movements" (${AMOUNT_COLUMNS})`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "${AMOUNT_INDEX}"`);
    await queryRunner.query(`CREATE INDEX "${AMOUNT_INDEX}" ON "giro_movements" (${AMOUNT_COLUMNS_BEFORE})`);
    await new MovementWords1797019200000().up(queryRunner);
  }
}
