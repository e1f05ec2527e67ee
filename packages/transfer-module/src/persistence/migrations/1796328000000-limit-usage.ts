import type { MigrationInterface, QueryRunner } from 'typeorm';

// Limits per source account. Same DDL on both engines.
// - `giro_limit_usage`: what each source account has used of each day's limits (a calendar day of Buenos Aires,
//   `YYYY-MM-DD`), the amount in integer cents and the number of transfers. Keyed by (address, day): the intent's
//   transaction takes its share with one upsert whose condition is the limit, and a change to FAILED gives it back.
// - `giro_movements.usage_day`: the day whose usage counts the movement (null when no daily limit applied), so that
//   FAILED frees exactly the share the intent took, on the day it took it, whatever the limits are by then.

export class LimitUsage1796328000000 implements MigrationInterface {
  name = 'LimitUsage1796328000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "giro_limit_usage" (
  "address" varchar(22) NOT NULL,
  "day" varchar(10) NOT NULL,
  "amount_cents" bigint NOT NULL,
  "transfers" integer NOT NULL,
  CONSTRAINT "PK_giro_limit_usage" PRIMARY KEY ("address", "day")
)`);
    await queryRunner.query('ALTER TABLE "giro_movements" ADD COLUMN "usage_day" varchar(10)');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "giro_movements" DROP COLUMN "usage_day"');
    await queryRunner.query('DROP TABLE "giro_limit_usage"');
  }
}
