import type { MigrationInterface, QueryRunner } from 'typeorm';

// A search read along the creation time, alone or within a status, checked each movement's row for the other
// filters: wide rows (the intent, the bank's answer), often on pages no cache holds. A common text with an amount
// range few movements reach read thousands of rows for a page, and a status with an amount range hundreds, each
// a page read when outside the cache. The creation time's index now ends with the amount and the description, and
// the status's with the amount, so those walks check them from the index. Last key columns, as in
// MovementAmountText1796932800000, so the entity declares one index for both engines; after origin_id they change
// no order.
const INDEXES: { name: string; before: string; after: string }[] = [
  {
    name: 'IDX_giro_movements_created',
    before: '"created_at_ms", "origin_id"',
    after: '"created_at_ms", "origin_id", "amount_cents", "description"',
  },
  {
    name: 'IDX_giro_movements_status_created',
    before: '"status", "created_at_ms", "origin_id"',
    after: '"status", "created_at_ms", "origin_id", "amount_cents"',
  },
];

export class MovementOrderCovering1797105600000 implements MigrationInterface {
  name = 'MovementOrderCovering1797105600000';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const { name, after } of INDEXES) {
      await queryRunner.query(`DROP INDEX "${name}"`);
      await queryRunner.query(`CREATE INDEX "${name}" ON "giro_movements" (${after})`);
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const { name, before } of INDEXES) {
      await queryRunner.query(`DROP INDEX "${name}"`);
      await queryRunner.query(`CREATE INDEX "${name}" ON "giro_movements" (${before})`);
    }
  }
}
