import type { MigrationInterface, QueryRunner } from 'typeorm';

// A movement taken over from a worker that stopped with its lease may have had an answer from the bank that
// nobody recorded; until the longest polling rule has passed since, no query may go out, on demand either.
// lastAnswerAt cannot say so (no answer is known), hence a column of its own. Same DDL on both engines.

export class QueriesHeldUntil1795723200000 implements MigrationInterface {
  name = 'QueriesHeldUntil1795723200000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "giro_movements" ADD COLUMN "queries_held_until_ms" bigint');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "giro_movements" DROP COLUMN "queries_held_until_ms"');
  }
}
