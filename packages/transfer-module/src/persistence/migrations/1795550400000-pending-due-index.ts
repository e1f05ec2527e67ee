import type { MigrationInterface, QueryRunner } from 'typeorm';

// The claim's first step reads due PENDING movements in due-time order. It read them on an index of
// (status, next_query_at_ms) over every movement, and since almost every answer moves next_query_at_ms,
// almost every write of a sweep rewrote an entry there for a movement that was not PENDING. A partial index
// holds only the PENDING ones (creations not yet acknowledged, a handful at any time): a write outside it
// costs nothing there. Same DDL on both engines.

export class PendingDueIndex1795550400000 implements MigrationInterface {
  name = 'PendingDueIndex1795550400000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX "IDX_giro_movements_due"');
    await queryRunner.query(
      `CREATE INDEX "IDX_giro_movements_pending_due" ON "giro_movements" ("next_query_at_ms") WHERE "status" = 'PENDING'`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX "IDX_giro_movements_pending_due"');
    await queryRunner.query('CREATE INDEX "IDX_giro_movements_due" ON "giro_movements" ("status", "next_query_at_ms")');
  }
}
