import type { MigrationInterface, QueryRunner } from 'typeorm';

// The daily close: when each movement became final (the day its COMPLETED, FAILED, REJECTED or CANCELED counts
// in), read by one index over the day's final movements, and the days whose close was announced (one row per
// day: the webhook is written once, whichever replica or restart closes it).
// A migration is a snapshot: the final statuses are spelled out here, not imported from the domain.
const FINALS = `('COMPLETED', 'FAILED', 'REJECTED', 'CANCELED')`;

export class DailyClose1797710400000 implements MigrationInterface {
  name = 'DailyClose1797710400000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "giro_movements" ADD COLUMN "final_at_ms" bigint');
    // A final movement's history holds the row that made it final (an anomaly's row only names what the bank
    // claimed); one without it keeps its last write's time.
    await queryRunner.query(`UPDATE "giro_movements" SET "final_at_ms" = COALESCE(
        (SELECT MIN(h."at_ms") FROM "giro_movement_history" h WHERE h."origin_id" = "giro_movements"."origin_id"
          AND h."to_status" = "giro_movements"."status" AND h."source" <> 'anomaly'),
        "updated_at_ms")
      WHERE "status" IN ${FINALS}`);
    await queryRunner.query(`CREATE INDEX "IDX_giro_movements_final" ON "giro_movements"
      ("final_at_ms", "from_address", "status", "amount_cents") WHERE "final_at_ms" IS NOT NULL`);
    await queryRunner.query(`CREATE TABLE "giro_closed_days" (
      "day" varchar(10) NOT NULL,
      "closed_at_ms" bigint NOT NULL,
      CONSTRAINT "PK_giro_closed_days" PRIMARY KEY ("day"))`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE "giro_closed_days"');
    await queryRunner.query('DROP INDEX "IDX_giro_movements_final"');
    await queryRunner.query('ALTER TABLE "giro_movements" DROP COLUMN "final_at_ms"');
  }
}
