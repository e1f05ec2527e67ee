import type { MigrationInterface, QueryRunner } from 'typeorm';

// The names an operator looks a movement up at the bank by, besides its originId. `debin_id`: the DEBIN id a
// lookup by it learned (the bank's movement does not carry one), so that the next lookup by it is known to be
// about a stored movement before the bank is asked, and the polling rule applies. Its index is partial: only
// the few movements ever looked up by a DEBIN id are in it, so no insert and no sweep answer writes it.
// Same DDL on both engines.

export class MovementLookupIds1795982400000 implements MigrationInterface {
  name = 'MovementLookupIds1795982400000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "giro_movements" ADD COLUMN "debin_id" text');
    await queryRunner.query(
      'CREATE INDEX "IDX_giro_movements_debin_id" ON "giro_movements" ("debin_id") WHERE "debin_id" IS NOT NULL',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX "IDX_giro_movements_debin_id"');
    await queryRunner.query('ALTER TABLE "giro_movements" DROP COLUMN "debin_id"');
  }
}
