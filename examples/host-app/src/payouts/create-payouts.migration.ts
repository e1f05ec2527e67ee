import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CreatePayouts1700000000000 implements MigrationInterface {
  name = 'CreatePayouts1700000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "payouts" (
      "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
      "origin_id" bigint NOT NULL,
      "recipient_cbu" varchar(22) NOT NULL,
      "recipient_cuit" varchar(11) NOT NULL,
      "amount" varchar(32) NOT NULL,
      "reference" varchar(100) NOT NULL,
      "status" varchar(16) NOT NULL)`);
    await queryRunner.query('CREATE UNIQUE INDEX "IDX_payouts_origin_id" ON "payouts" ("origin_id")');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE "payouts"');
  }
}
