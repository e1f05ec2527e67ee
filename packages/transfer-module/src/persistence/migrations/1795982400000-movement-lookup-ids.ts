import type { MigrationInterface, QueryRunner } from 'typeorm';

// The names an operator looks a movement up at the bank by, besides its originId. Same DDL on both engines.
// - `debin_id`: the DEBIN id a lookup by it learned (the bank's movement does not carry one), so that the next
//   lookup by it is known to be about a stored movement before the bank is asked, and the polling rule applies.
//   Its index is partial: only the few movements ever looked up by a DEBIN id are in it.
// - `network_id` gets its index back (DropNetworkIdIndex1795464000000 dropped it while nothing read by it),
//   partial, over the movements the bank has named: a lookup by network id (an operator's, and the check
//   before asking the bank) read the whole table, on SQLite on the reconciler's event loop. The index's cost is
//   on Postgres's writes: every answer is a non-HOT update that adds an entry to each index of the row
//   (`pnpm bench:lookup-index`; figures in BENCHMARKS.md, "Lookups by network id").

export class MovementLookupIds1795982400000 implements MigrationInterface {
  name = 'MovementLookupIds1795982400000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "giro_movements" ADD COLUMN "debin_id" text');
    await queryRunner.query(
      'CREATE INDEX "IDX_giro_movements_debin_id" ON "giro_movements" ("debin_id") WHERE "debin_id" IS NOT NULL',
    );
    await queryRunner.query(
      'CREATE INDEX "IDX_giro_movements_network_id" ON "giro_movements" ("network_id") WHERE "network_id" IS NOT NULL',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX "IDX_giro_movements_network_id"');
    await queryRunner.query('DROP INDEX "IDX_giro_movements_debin_id"');
    await queryRunner.query('ALTER TABLE "giro_movements" DROP COLUMN "debin_id"');
  }
}
