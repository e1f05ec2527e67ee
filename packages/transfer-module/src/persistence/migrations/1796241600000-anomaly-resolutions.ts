import type { MigrationInterface, QueryRunner } from 'typeorm';

// What an operator does about what giro raised. Same DDL on both engines.
// - `giro_anomaly_resolutions`: an anomaly (a `giro_movement_history` row with source `anomaly`) closed by an
//   operator — who (the key's id and name), when and why. A table of its own, keyed by the history row: the
//   history stays append-only, and a resolution is at most one per anomaly (the primary key). Nothing about the
//   movement changes.
// - A partial index of the history over its anomaly rows: the anomaly list and its count read only those, never
//   the whole history (one entry per anomaly; the other rows add nothing to it).
// - An acknowledgement of a cancellation records the host's own registration id (`reference`) and who
//   acknowledged it; an index by creation time (then originId) serves the cancellation list's pages.

export class AnomalyResolutions1796241600000 implements MigrationInterface {
  name = 'AnomalyResolutions1796241600000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "giro_anomaly_resolutions" (
  "history_id" bigint NOT NULL,
  "resolved_at_ms" bigint NOT NULL,
  "resolved_by_key_id" varchar(64) NOT NULL,
  "resolved_by_name" varchar(64) NOT NULL,
  "note" text NOT NULL,
  CONSTRAINT "PK_giro_anomaly_resolutions" PRIMARY KEY ("history_id"),
  CONSTRAINT "FK_giro_anomaly_resolutions_history" FOREIGN KEY ("history_id")
    REFERENCES "giro_movement_history" ("id") ON DELETE RESTRICT ON UPDATE NO ACTION
)`);
    await queryRunner.query(
      `CREATE INDEX "IDX_giro_movement_history_anomalies" ON "giro_movement_history" ("id") WHERE "source" = 'anomaly'`,
    );
    await queryRunner.query('ALTER TABLE "giro_cancellations" ADD COLUMN "reference" varchar(100)');
    await queryRunner.query('ALTER TABLE "giro_cancellations" ADD COLUMN "acknowledged_by_key_id" varchar(64)');
    await queryRunner.query('ALTER TABLE "giro_cancellations" ADD COLUMN "acknowledged_by_name" varchar(64)');
    await queryRunner.query(
      'CREATE INDEX "IDX_giro_cancellations_created" ON "giro_cancellations" ("created_at_ms", "origin_id")',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX "IDX_giro_cancellations_created"');
    await queryRunner.query('ALTER TABLE "giro_cancellations" DROP COLUMN "acknowledged_by_name"');
    await queryRunner.query('ALTER TABLE "giro_cancellations" DROP COLUMN "acknowledged_by_key_id"');
    await queryRunner.query('ALTER TABLE "giro_cancellations" DROP COLUMN "reference"');
    await queryRunner.query('DROP INDEX "IDX_giro_movement_history_anomalies"');
    await queryRunner.query('DROP TABLE "giro_anomaly_resolutions"');
  }
}
