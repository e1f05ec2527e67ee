import type { MigrationInterface, QueryRunner } from 'typeorm';

// An amount or a range of them is read from the (status, amount_cents, created_at_ms, origin_id) index, one stretch
// per status (search/search-query.ts), and with a text along the creation time's index, which carries both: the
// amount's own index answered nothing the others do not, and every created transfer wrote it where its amount falls,
// anywhere in it (on Postgres also every update that is not HOT: each answer, which moves next_query_at_ms).

const AMOUNT_INDEX =
  'CREATE INDEX "IDX_giro_movements_amount" ON "giro_movements" ("amount_cents", "created_at_ms", "origin_id")';

export class AmountFromStatusIndex1798315200000 implements MigrationInterface {
  name = 'AmountFromStatusIndex1798315200000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX "IDX_giro_movements_amount"');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(AMOUNT_INDEX);
  }
}
