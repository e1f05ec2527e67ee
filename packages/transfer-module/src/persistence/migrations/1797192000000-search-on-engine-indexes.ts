import type { MigrationInterface, QueryRunner } from 'typeorm';
import { engineOf } from '../engine/database-engine';
import { MovementWords1797019200000 } from './1797019200000-movement-words';

// The search reads the engines' own indexes (search/): one B-tree per filter that leads with its value and goes on
// in the page's order, the creation time's for the rest, and the description's trigrams (FTS5 on SQLite, pg_trgm
// on Postgres). What came to answer faster than a person needs goes: the words of the descriptions kept by a
// trigger (Postgres), the status's index by amount, and the columns the creation time's and amount's indexes
// carried beyond the page's order. Every index is written with every created transfer, and on Postgres with every
// update (an answer moves the indexed next_query_at_ms, so no update is HOT): fewer and narrower is cheaper.
// The status's index keeps the amount after the page's order: a status with an amount range is checked from it,
// and, wider than the other filters' indexes, it is the one SQLite leaves when a status comes with another filter
// (without statistics SQLite weighs two equalities alike and prefers the narrower index; a status is the least
// selective of the filters).

/** Indexes that go on in the page's order and no further: [name, columns now, columns before]. */
const NARROWED: readonly (readonly [string, string, string])[] = [
  [
    'IDX_giro_movements_created',
    '"created_at_ms", "origin_id"',
    '"created_at_ms", "origin_id", "amount_cents", "description"',
  ],
  [
    'IDX_giro_movements_amount',
    '"amount_cents", "created_at_ms", "origin_id"',
    '"amount_cents", "created_at_ms", "origin_id", "description"',
  ],
];

const STATUS_AMOUNT = ['IDX_giro_movements_status_amount', '"status", "amount_cents", "created_at_ms", "origin_id"'];

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
    await queryRunner.query(`DROP INDEX "${STATUS_AMOUNT[0]}"`);
    for (const [name, columns] of NARROWED) {
      await queryRunner.query(`DROP INDEX "${name}"`);
      await queryRunner.query(`CREATE INDEX "${name}" ON "giro_movements" (${columns})`);
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const [name, , before] of NARROWED) {
      await queryRunner.query(`DROP INDEX "${name}"`);
      await queryRunner.query(`CREATE INDEX "${name}" ON "giro_movements" (${before})`);
    }
    await queryRunner.query(`CREATE INDEX "${STATUS_AMOUNT[0]}" ON "giro_movements" (${STATUS_AMOUNT[1]})`);
    await new MovementWords1797019200000().up(queryRunner);
  }
}
