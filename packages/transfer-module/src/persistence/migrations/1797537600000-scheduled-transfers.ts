import type { MigrationInterface, QueryRunner } from 'typeorm';
import { engineOf } from '../engine/database-engine';

// Scheduled transfers: two statuses more (SCHEDULED, waiting for its moment; CANCELED, called off before it) and
// the moment itself, with a partial index the release walks (only scheduled transfers are in it).
// A migration is a snapshot: the statuses are spelled out here, not imported from the domain.
const OLD_STATUS_CHECK = `"status" IN ('AWAITING_APPROVAL', 'PENDING', 'CREATED', 'IN_PROGRESS', 'DELAYED', 'COMPLETED', 'FAILED', 'REJECTED')`;
const NEW_STATUS_CHECK = `"status" IN ('AWAITING_APPROVAL', 'SCHEDULED', 'PENDING', 'CREATED', 'IN_PROGRESS', 'DELAYED', 'COMPLETED', 'FAILED', 'REJECTED', 'CANCELED')`;

const commonUp = [
  'ALTER TABLE "giro_movements" ADD COLUMN "execute_at_ms" bigint',
  `CREATE INDEX "IDX_giro_movements_scheduled" ON "giro_movements" ("execute_at_ms") WHERE "status" = 'SCHEDULED'`,
];

export class ScheduledTransfers1797537600000 implements MigrationInterface {
  name = 'ScheduledTransfers1797537600000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await setStatusCheck(queryRunner, NEW_STATUS_CHECK);
    for (const statement of commonUp) await queryRunner.query(statement);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX "IDX_giro_movements_scheduled"');
    await queryRunner.query('ALTER TABLE "giro_movements" DROP COLUMN "execute_at_ms"');
    await setStatusCheck(queryRunner, OLD_STATUS_CHECK);
  }
}

async function setStatusCheck(queryRunner: QueryRunner, check: string): Promise<void> {
  if (engineOf(queryRunner.connection) === 'sqlite') {
    await rebuildSqliteMovements(queryRunner, check);
    return;
  }
  await queryRunner.query('ALTER TABLE "giro_movements" DROP CONSTRAINT "CHK_giro_movements_status"');
  await queryRunner.query(`ALTER TABLE "giro_movements" ADD CONSTRAINT "CHK_giro_movements_status" CHECK (${check})`);
}

/**
 * SQLite cannot change a CHECK constraint in place: the table is built again with the new one (SQLite's own
 * procedure, https://sqlite.org/lang_altertable.html#otheralter) — a new table from the current definition with
 * the check replaced, the rows copied, the old table dropped with its indexes and triggers, the new one renamed,
 * its indexes and triggers (the description's FTS5 index is kept by them) created again. The rows keep their
 * rowids (the origin_id), so the FTS5 index, which names rows by them, stays true. TypeORM runs migrations on
 * SQLite with foreign keys off (the history's rows would block the drop); the check at the end proves no
 * reference was broken.
 */
async function rebuildSqliteMovements(queryRunner: QueryRunner, check: string): Promise<void> {
  const [table] = await queryRunner.query(
    `SELECT "sql" FROM "sqlite_master" WHERE "type" = 'table' AND "name" = 'giro_movements'`,
  );
  const current = String(table?.sql ?? '');
  const checkNow = /CONSTRAINT "CHK_giro_movements_status" CHECK \(("status" IN \([^)]*\))\)/.exec(current);
  if (checkNow === null) throw new Error('giro_movements has no CHK_giro_movements_status constraint to replace');
  const rebuilt = current
    .replace('CREATE TABLE "giro_movements"', 'CREATE TABLE "giro_movements_rebuilt"')
    .replace(checkNow[1], check);
  const dependents: { sql: string }[] = await queryRunner.query(
    `SELECT "sql" FROM "sqlite_master" WHERE "type" IN ('index', 'trigger') AND "tbl_name" = 'giro_movements'
     AND "sql" IS NOT NULL ORDER BY "rowid"`,
  );
  await queryRunner.query(rebuilt);
  await queryRunner.query('INSERT INTO "giro_movements_rebuilt" SELECT * FROM "giro_movements"');
  await queryRunner.query('DROP TABLE "giro_movements"');
  await queryRunner.query('ALTER TABLE "giro_movements_rebuilt" RENAME TO "giro_movements"');
  for (const dependent of dependents) await queryRunner.query(dependent.sql);
  const broken: unknown[] = await queryRunner.query('PRAGMA foreign_key_check');
  if (broken.length > 0) throw new Error(`rebuilding giro_movements broke ${broken.length} foreign key reference(s)`);
}
