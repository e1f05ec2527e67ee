import type { MigrationInterface, QueryRunner } from 'typeorm';

// Nothing looks a movement up by its networkId (the bank is asked by originId, the store reads by originId
// and by due time), yet the index on it was written by every insert and by every answer that sets the
// networkId: a cost on the create path with no reader. Same DDL on both engines.

export class DropNetworkIdIndex1795464000000 implements MigrationInterface {
  name = 'DropNetworkIdIndex1795464000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX "IDX_giro_movements_network_id"');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('CREATE INDEX "IDX_giro_movements_network_id" ON "giro_movements" ("network_id")');
  }
}
