import type { MigrationInterface, QueryRunner } from 'typeorm';

// Who minted each API key: the key id of the credential that created it (another key, `admin-token` for the
// bootstrap token, `cli` for the command line). The approval rule reads it to tell a second person from a second
// key of the same person. Keys minted before this column have none: the rule then knows only that two keys differ.

export class ApiKeyMinters1797278400000 implements MigrationInterface {
  name = 'ApiKeyMinters1797278400000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "giro_api_keys" ADD COLUMN "created_by_key_id" varchar(64)');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "giro_api_keys" DROP COLUMN "created_by_key_id"');
  }
}
