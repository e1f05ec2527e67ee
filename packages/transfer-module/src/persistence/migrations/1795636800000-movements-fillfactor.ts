import type { MigrationInterface, QueryRunner } from 'typeorm';
import { engineOf } from '../engine/database-engine';

// Postgres only (SQLite has no such setting). A claim writes a lease on every movement it takes, changing
// no indexed column; when the row's page has room for the new version Postgres writes it there without
// touching any index (a HOT update), otherwise every index of the table gets a new entry. Pages filled to
// 100 % (the default) have no room: keep a fifth of each free. Applies to pages written from now on (an
// existing table gets it as its rows are rewritten, or at once with VACUUM FULL).

export class MovementsFillfactor1795636800000 implements MigrationInterface {
  name = 'MovementsFillfactor1795636800000';

  async up(queryRunner: QueryRunner): Promise<void> {
    if (engineOf(queryRunner.connection) === 'postgres') {
      await queryRunner.query('ALTER TABLE "giro_movements" SET (fillfactor = 80)');
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    if (engineOf(queryRunner.connection) === 'postgres') {
      await queryRunner.query('ALTER TABLE "giro_movements" RESET (fillfactor)');
    }
  }
}
