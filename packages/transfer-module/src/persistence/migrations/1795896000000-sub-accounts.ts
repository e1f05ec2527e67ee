import type { MigrationInterface, QueryRunner } from 'typeorm';

// The client sub-accounts (CVU) a payment service provider registers to send from (PSP mode). Their own table:
// nothing on the create or sweep paths reads it, only a transfer whose `from` is not one of the entity's own
// accounts. Same DDL on both engines.

export class SubAccounts1795896000000 implements MigrationInterface {
  name = 'SubAccounts1795896000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "giro_sub_accounts" (
  "address" varchar(22) NOT NULL,
  "owner_person_id" varchar(11) NOT NULL,
  "owner_name" text,
  "created_at_ms" bigint NOT NULL,
  "disabled_at_ms" bigint,
  CONSTRAINT "PK_giro_sub_accounts" PRIMARY KEY ("address")
)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE "giro_sub_accounts"');
  }
}
