import type { DataSource, EntityManager, ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import { recordSqliteDeliveryResults } from './delivery-results';
import type { BulkColumn, EngineAdapter, EngineCapabilities } from './engine-adapter';
import { selectSqliteShares } from './fair-share';
import { runSqliteFencedWrite } from './fenced-update';
import { jsonMemberName } from './json-member';
import { insertSqliteMovement } from './movement-insert';
import { advanceSqliteCounter } from './origin-id-counter';
import { writeSqliteOutboxRows } from './outbox-write';
import { runSqliteExclusive, sqliteTransactions, type Transactions } from './transactions';

export const SQLITE_CAPABILITIES: EngineCapabilities = {
  waitsForServerAtStart: false,
  sharedByReplicas: false,
  oneStatementWrites: false,
};

/**
 * SQLite through better-sqlite3: one process's file, one writer at a time. Every write transaction holds the
 * file's write lock from its start (BEGIN IMMEDIATE), so it needs no row locks, no advisory locks and no
 * SKIP LOCKED: no other writer runs beside it. Transactions queued together share one commit (group commit).
 * No DML in a CTE: a row and the rows it feeds are two statements in one transaction.
 */
export class SqliteEngine implements EngineAdapter {
  readonly capabilities = SQLITE_CAPABILITIES;
  readonly transactions: Transactions;

  constructor(private readonly dataSource: DataSource) {
    this.transactions = sqliteTransactions(dataSource);
  }

  sql(text: string): string {
    return text;
  }

  indexedBy(index: string): string {
    return ` INDEXED BY "${index}"`;
  }

  position(haystack: string, needle: string): string {
    return `instr(${haystack}, ${needle})`;
  }

  jsonMember(column: string, member: string): string {
    return `json_extract(${column}, '$.${jsonMemberName(member)}')`;
  }

  async insertMany(manager: EntityManager, table: string, columns: readonly BulkColumn[], rows: unknown[][]) {
    if (rows.length === 0) return;
    const names = columns.map((column) => `"${column.name}"`).join(', ');
    const source = this.rowSource(columns, rows);
    await manager.query(`INSERT INTO "${table}" (${names}) ${source.text}`, source.parameters);
  }

  rowSource(columns: readonly BulkColumn[], rows: unknown[][]): { text: string; parameters: unknown[] } {
    const row = `(${columns.map(() => '?').join(', ')})`;
    return { text: `VALUES ${rows.map(() => row).join(', ')}`, parameters: rows.flat() };
  }

  oneOf(_type: BulkColumn['type'], values: readonly unknown[]): { text: string; parameters: unknown[] } {
    return { text: `IN (${values.map(() => '?').join(', ')})`, parameters: [...values] };
  }

  lockRows<T extends ObjectLiteral>(query: SelectQueryBuilder<T>): SelectQueryBuilder<T> {
    return query;
  }

  skipLocked(): string {
    return '';
  }

  async serialize(): Promise<void> {}

  unleased(alias: string): string {
    return `(${alias}."lease_expires_at_ms" IS NULL OR ${alias}."lease_expires_at_ms" <= ?)`;
  }

  unleasedParameters(nowMs: number): unknown[] {
    return [nowMs];
  }

  /** One process: no replica to go silent. */
  async heldBySilentOwner(): Promise<boolean> {
    return false;
  }

  selectShares: EngineAdapter['selectShares'] = (manager, queue, shares, times) =>
    selectSqliteShares(this, manager, queue, shares, times);

  fencedWrite: EngineAdapter['fencedWrite'] = runSqliteFencedWrite;

  writesWithoutHistory: EngineAdapter['writesWithoutHistory'] = (alone) => alone;

  insertMovement: EngineAdapter['insertMovement'] = insertSqliteMovement;

  advanceOriginIdCounter: EngineAdapter['advanceOriginIdCounter'] = advanceSqliteCounter;

  writeOutboxRows: EngineAdapter['writeOutboxRows'] = writeSqliteOutboxRows;

  claimDeliveries(
    select: { sql: string; parameters: unknown[] },
    owner: string,
    leaseExpiresAtMs: number,
  ): Promise<Record<string, unknown>[]> {
    return this.transactions.write(async (manager: EntityManager) => {
      const rows: Record<string, unknown>[] = await manager.query(select.sql, select.parameters);
      if (rows.length === 0) return [];
      const ids = rows.map((row) => Number(row.id));
      await manager.query(
        `UPDATE "giro_webhook_deliveries" SET "lease_owner" = ?, "lease_expires_at_ms" = ?
          WHERE "id" IN (${ids.map(() => '?').join(', ')})`,
        [owner, leaseExpiresAtMs, ...ids],
      );
      return rows;
    });
  }

  recordDeliveryResults: EngineAdapter['recordDeliveryResults'] = (owner, batches) =>
    recordSqliteDeliveryResults(this.transactions, owner, batches);

  openDeliveryConnection(): undefined {
    return undefined;
  }

  openHeartbeatConnection(): undefined {
    return undefined;
  }

  announceEventsCommitted(): void {}

  /** Other processes are kept out by SQLite's own file lock; this process's transactions by the in-process one. */
  exclusively<T>(work: () => Promise<T>): Promise<T> {
    return runSqliteExclusive(this.dataSource, work);
  }

  keepConnectionErrorsHandled(): void {}

  async forgetRewrittenValues(): Promise<void> {
    await this.exclusively(() => this.dataSource.query('PRAGMA wal_checkpoint(TRUNCATE)'));
  }
}
