import type { MigrationInterface, QueryRunner } from 'typeorm';

// The admin API's keys: who may call it, with which role. Only a hash of each key is stored. A table
// of its own, read by key id on each request that presents a key; nothing on the create or sweep paths reads
// it. Same DDL on both engines. The role list is written out: a migration must not change when the code does.

export class ApiKeys1796155200000 implements MigrationInterface {
  name = 'ApiKeys1796155200000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "giro_api_keys" (
  "key_id" varchar(16) NOT NULL,
  "name" varchar(64) NOT NULL,
  "role" varchar(16) NOT NULL,
  "key_hash" varchar(64) NOT NULL,
  "created_at_ms" bigint NOT NULL,
  "revoked_at_ms" bigint,
  CONSTRAINT "PK_giro_api_keys" PRIMARY KEY ("key_id"),
  CONSTRAINT "UQ_giro_api_keys_name" UNIQUE ("name"),
  CONSTRAINT "CHK_giro_api_keys_role" CHECK ("role" IN ('viewer', 'operator', 'approver', 'admin'))
)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE "giro_api_keys"');
  }
}
