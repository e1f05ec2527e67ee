import type { MigrationInterface, QueryRunner } from 'typeorm';

// The claim of a sweep takes the due movements that are not PENDING in next_query_at_ms order: this index
// serves that order, so a claim reads about as many rows as it takes instead of scanning and sorting every
// due movement (final movements have next_query_at_ms null and never match). Same DDL on both engines.

export class AddDueTimeIndex1795377600000 implements MigrationInterface {
  name = 'AddDueTimeIndex1795377600000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('CREATE INDEX "IDX_giro_movements_next_query_at" ON "giro_movements" ("next_query_at_ms")');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX "IDX_giro_movements_next_query_at"');
  }
}
