import type { MigrationInterface, QueryRunner } from 'typeorm';

// A status and an amount range searched together ("FAILED between 1 000 and 1 500"): the status's index goes on
// in the creation time's order and the amount's index holds every status, so either reads row after row to check
// the other filter — every movement of the status, or every movement in the range, a read that grows with the
// table. This index answers the pair from its keys alone; the page's few rows are
// then read by primary key (movement-search-query.ts chooses it on SQLite; Postgres's planner weighs it).
const INDEX = 'IDX_giro_movements_status_amount';

export class MovementStatusAmount1796846400000 implements MigrationInterface {
  name = 'MovementStatusAmount1796846400000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE INDEX "${INDEX}" ON "giro_movements" ("status", "amount_cents", "created_at_ms", "origin_id")`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "${INDEX}"`);
  }
}
