import type { MigrationInterface, QueryRunner } from 'typeorm';
import { engineOf } from '../engine/database-engine';

// Approvals: two statuses more (AWAITING_APPROVAL, REJECTED: 17 characters, wider than the old 16),
// when a waiting transfer expires, and who made each history row.
// A migration is a snapshot: the statuses are spelled out here, not imported from the domain.
const OLD_STATUS_CHECK = `"status" IN ('PENDING', 'CREATED', 'IN_PROGRESS', 'DELAYED', 'COMPLETED', 'FAILED')`;
const NEW_STATUS_CHECK = `"status" IN ('AWAITING_APPROVAL', 'PENDING', 'CREATED', 'IN_PROGRESS', 'DELAYED', 'COMPLETED', 'FAILED', 'REJECTED')`;

const commonUp = [
  'ALTER TABLE "giro_movements" ADD COLUMN "approval_expires_at_ms" bigint',
  `CREATE INDEX "IDX_giro_movements_awaiting_approval" ON "giro_movements" ("approval_expires_at_ms")
    WHERE "status" = 'AWAITING_APPROVAL'`,
  'ALTER TABLE "giro_movement_history" ADD COLUMN "actor_key_id" varchar(64)',
  'ALTER TABLE "giro_movement_history" ADD COLUMN "actor_name" varchar(64)',
];

const postgresUp = [
  // Widening a varchar rewrites nothing on Postgres (and keeps the indexes).
  'ALTER TABLE "giro_movements" ALTER COLUMN "status" TYPE varchar(20)',
  'ALTER TABLE "giro_movements" DROP CONSTRAINT "CHK_giro_movements_status"',
  `ALTER TABLE "giro_movements" ADD CONSTRAINT "CHK_giro_movements_status" CHECK (${NEW_STATUS_CHECK})`,
  'ALTER TABLE "giro_movement_history" ALTER COLUMN "from_status" TYPE varchar(20)',
  'ALTER TABLE "giro_movement_history" ALTER COLUMN "to_status" TYPE varchar(20)',
];

export class Approvals1796500800000 implements MigrationInterface {
  name = 'Approvals1796500800000';

  async up(queryRunner: QueryRunner): Promise<void> {
    if (engineOf(queryRunner.connection) === 'sqlite') await rebuildSqliteMovements(queryRunner, NEW_STATUS_CHECK, 20);
    else for (const statement of postgresUp) await queryRunner.query(statement);
    for (const statement of commonUp) await queryRunner.query(statement);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "giro_movement_history" DROP COLUMN "actor_name"');
    await queryRunner.query('ALTER TABLE "giro_movement_history" DROP COLUMN "actor_key_id"');
    await queryRunner.query('DROP INDEX "IDX_giro_movements_awaiting_approval"');
    await queryRunner.query('ALTER TABLE "giro_movements" DROP COLUMN "approval_expires_at_ms"');
    if (engineOf(queryRunner.connection) === 'sqlite') {
      await rebuildSqliteMovements(queryRunner, OLD_STATUS_CHECK, 16);
      return;
    }
    await queryRunner.query('ALTER TABLE "giro_movements" DROP CONSTRAINT "CHK_giro_movements_status"');
    await queryRunner.query(
      `ALTER TABLE "giro_movements" ADD CONSTRAINT "CHK_giro_movements_status" CHECK (${OLD_STATUS_CHECK})`,
    );
  }
}

/**
 * SQLite cannot change a CHECK constraint in place: the table is built again with the new one (SQLite's own
 * procedure, https://sqlite.org/lang_altertable.html#otheralter) — a new table from the current definition with
 * the check replaced, the rows copied, the old table dropped, the new one renamed, its indexes created again.
 * TypeORM runs migrations on SQLite with foreign keys off (the history's rows would block the drop), and the
 * check at the end proves no reference was broken.
 */
async function rebuildSqliteMovements(queryRunner: QueryRunner, check: string, statusWidth: number): Promise<void> {
  const [table] = await queryRunner.query(
    `SELECT "sql" FROM "sqlite_master" WHERE "type" = 'table' AND "name" = 'giro_movements'`,
  );
  const current = String(table?.sql ?? '');
  const checkNow = /CONSTRAINT "CHK_giro_movements_status" CHECK \(("status" IN \([^)]*\))\)/.exec(current);
  if (checkNow === null) throw new Error('giro_movements has no CHK_giro_movements_status constraint to replace');
  const rebuilt = current
    .replace('CREATE TABLE "giro_movements"', 'CREATE TABLE "giro_movements_rebuilt"')
    .replace(checkNow[1], check)
    .replace(/"status" varchar\(\d+\)/, `"status" varchar(${statusWidth})`);
  const indexes: { sql: string }[] = await queryRunner.query(
    `SELECT "sql" FROM "sqlite_master" WHERE "type" = 'index' AND "tbl_name" = 'giro_movements' AND "sql" IS NOT NULL`,
  );
  await queryRunner.query(rebuilt);
  await queryRunner.query('INSERT INTO "giro_movements_rebuilt" SELECT * FROM "giro_movements"');
  await queryRunner.query('DROP TABLE "giro_movements"');
  await queryRunner.query('ALTER TABLE "giro_movements_rebuilt" RENAME TO "giro_movements"');
  for (const index of indexes) await queryRunner.query(index.sql);
  const broken: unknown[] = await queryRunner.query('PRAGMA foreign_key_check');
  if (broken.length > 0) throw new Error(`rebuilding giro_movements broke ${broken.length} foreign key reference(s)`);
}
