import type { MigrationInterface, QueryRunner } from 'typeorm';

// Text with an amount range ("alquiler" above $ 50 000): neither index holds both, so a narrow range read along
// the amount's index read each movement's row (wide: the intent, the bank's answer) to check its text, and a
// common text read along the creation time met the range rarely, reading many rows for a page. The amount's
// index now ends with the description, so such a range is checked from the index alone
// and only the page's rows are read. A last key column rather than Postgres's INCLUDE: the same index on both
// engines, as the entity declares it; after origin_id it changes no order.
const INDEX = 'IDX_giro_movements_amount';

export class MovementAmountText1796932800000 implements MigrationInterface {
  name = 'MovementAmountText1796932800000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "${INDEX}"`);
    await queryRunner.query(
      `CREATE INDEX "${INDEX}" ON "giro_movements" ("amount_cents", "created_at_ms", "origin_id", "description")`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "${INDEX}"`);
    await queryRunner.query(
      `CREATE INDEX "${INDEX}" ON "giro_movements" ("amount_cents", "created_at_ms", "origin_id")`,
    );
  }
}
