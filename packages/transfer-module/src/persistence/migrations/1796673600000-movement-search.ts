import type { MigrationInterface, QueryRunner } from 'typeorm';
import { engineOf } from '../engine/database-engine';

// The operators' search: find a transfer by what they know of it, newest first, a page at a time.
// The fields they search by live in the intent's JSON text, which no index reads, so they are copied into
// columns of their own, written with the intent and never changed (movement-intents.ts), and filled here for the
// rows stored before. Each index leads with one filter's value and goes on with the creation time and the
// originId, the order and the keyset of a page: a search by one of them reads only the page it answers. The
// CUIT of either party has one index per side (the query reads a page from each and merges them). The amount's
// index goes on in the page's order too: one amount is read in order; a range is read as keys from the index
// alone, or along the creation time when it is wide (movement-search-query.ts). Text in the description has an
// index of its own (MovementText1796760000000).
// What the searches and these indexes cost is in BENCHMARKS.md ("Search").
const COLUMNS = [
  'ADD COLUMN "amount_cents" bigint',
  'ADD COLUMN "from_address" varchar(22)',
  'ADD COLUMN "from_person_id" varchar(11)',
  'ADD COLUMN "to_address" varchar(22)',
  'ADD COLUMN "to_person_id" varchar(11)',
  'ADD COLUMN "description" text',
];

const INDEXES = [
  ['IDX_giro_movements_created', '"created_at_ms", "origin_id"'],
  ['IDX_giro_movements_status_created', '"status", "created_at_ms", "origin_id"'],
  ['IDX_giro_movements_from_address', '"from_address", "created_at_ms", "origin_id"'],
  ['IDX_giro_movements_to_address', '"to_address", "created_at_ms", "origin_id"'],
  ['IDX_giro_movements_from_person', '"from_person_id", "created_at_ms", "origin_id"'],
  ['IDX_giro_movements_to_person', '"to_person_id", "created_at_ms", "origin_id"'],
  ['IDX_giro_movements_amount', '"amount_cents", "created_at_ms", "origin_id"'],
];

// The canonical amount always has two decimals ("1234.50"): without its point it is the amount in cents.
const FILL = {
  sqlite: `UPDATE "giro_movements" SET
    "amount_cents" = CAST(REPLACE("amount", '.', '') AS INTEGER),
    "from_address" = json_extract("intent", '$.from.address'),
    "from_person_id" = json_extract("intent", '$.from.owner.personId'),
    "to_address" = json_extract("intent", '$.to.address'),
    "to_person_id" = json_extract("intent", '$.to.owner.personId'),
    "description" = json_extract("intent", '$.description')`,
  postgres: `UPDATE "giro_movements" SET
    "amount_cents" = CAST(REPLACE("amount", '.', '') AS bigint),
    "from_address" = ("intent"::jsonb) #>> '{from,address}',
    "from_person_id" = ("intent"::jsonb) #>> '{from,owner,personId}',
    "to_address" = ("intent"::jsonb) #>> '{to,address}',
    "to_person_id" = ("intent"::jsonb) #>> '{to,owner,personId}',
    "description" = ("intent"::jsonb) ->> 'description'`,
};

export class MovementSearch1796673600000 implements MigrationInterface {
  name = 'MovementSearch1796673600000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const engine = engineOf(queryRunner.connection);
    // SQLite adds one column per statement; Postgres rewrites nothing for nullable columns without a default.
    for (const column of COLUMNS) await queryRunner.query(`ALTER TABLE "giro_movements" ${column}`);
    await queryRunner.query(FILL[engine]);
    for (const [name, columns] of INDEXES) {
      await queryRunner.query(`CREATE INDEX "${name}" ON "giro_movements" (${columns})`);
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const [name] of [...INDEXES].reverse()) await queryRunner.query(`DROP INDEX "${name}"`);
    for (const column of [...COLUMNS].reverse()) {
      await queryRunner.query(
        `ALTER TABLE "giro_movements" ${column.replace(/^ADD COLUMN ("[a-z_]+").*$/, 'DROP COLUMN $1')}`,
      );
    }
  }
}
