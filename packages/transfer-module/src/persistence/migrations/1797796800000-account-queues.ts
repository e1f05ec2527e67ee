import type { MigrationInterface, QueryRunner } from 'typeorm';

// A fair share of the bank for every source account: the claim walks the accounts with due creations (PENDING) and
// the release those with scheduled transfers (SCHEDULED), one index probe per account, then reads each account's
// share in time order. Partial indexes: only the rows waiting in each queue are in them.
const INDEXES = [
  `CREATE INDEX "IDX_giro_movements_pending_account" ON "giro_movements" ("from_address", "next_query_at_ms")
    WHERE "status" = 'PENDING'`,
  `CREATE INDEX "IDX_giro_movements_scheduled_account" ON "giro_movements" ("from_address", "execute_at_ms")
    WHERE "status" = 'SCHEDULED'`,
];

export class AccountQueues1797796800000 implements MigrationInterface {
  name = 'AccountQueues1797796800000';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const statement of INDEXES) await queryRunner.query(statement);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX "IDX_giro_movements_scheduled_account"');
    await queryRunner.query('DROP INDEX "IDX_giro_movements_pending_account"');
  }
}
