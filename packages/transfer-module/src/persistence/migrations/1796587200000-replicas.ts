import type { MigrationInterface, QueryRunner } from 'typeorm';

// The live replicas of a deployment on one database: each one's heartbeat, so they share the bank's
// allowance (each takes 1/N of it), and the end of a pause the bank asked for (429 with Retry-After), so every
// replica honours it. `beating_since_ms`: since when it has beaten without a gap (a replica takes over a silent
// one's leases only once it has itself been beating that long, so after a database outage no replica takes over
// another that simply has not beaten again yet). Same DDL on both engines (SQLite has one process: it keeps the table, never reads a share).
const REPLICAS = `CREATE TABLE "giro_replicas" (
  "owner" varchar(200) NOT NULL,
  "started_at_ms" bigint NOT NULL,
  "heartbeat_at_ms" bigint NOT NULL,
  "beating_since_ms" bigint NOT NULL,
  "bank_paused_until_ms" bigint,
  CONSTRAINT "PK_giro_replicas" PRIMARY KEY ("owner")
)`;

export class Replicas1796587200000 implements MigrationInterface {
  name = 'Replicas1796587200000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(REPLICAS);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE "giro_replicas"');
  }
}
