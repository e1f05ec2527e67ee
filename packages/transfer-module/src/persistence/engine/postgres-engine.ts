import type { DataSource, EntityManager, ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import { recordPostgresDeliveryResults } from './delivery-results';
import type {
  BulkColumn,
  DeliveryConnection,
  EngineAdapter,
  EngineCapabilities,
  HeartbeatConnection,
} from './engine-adapter';
import { selectPostgresShares } from './fair-share';
import { runPostgresFencedWrite } from './fenced-update';
import { jsonMemberName } from './json-member';
import { insertPostgresMovement } from './movement-insert';
import { advancePostgresCounter } from './origin-id-counter';
import { writePostgresOutboxRows } from './outbox-write';
import { keepPostgresClientErrorsHandled } from './postgres-client-errors';
import { PostgresDeliveryConnection, PostgresEventsAnnouncer } from './postgres-delivery-connection';
import { PostgresHeartbeatConnection } from './postgres-heartbeat-connection';
import { updateBatchFor } from './postgres-update-batch';
import { queryWithCount } from './query-with-count';
import { numberedPlaceholders } from './raw-rows';
import { silentOwnerLease, silentOwnerParameters } from './replica-takeover';
import { postgresTransactions, type Transactions } from './transactions';

export const POSTGRES_CAPABILITIES: EngineCapabilities = {
  waitsForServerAtStart: true,
  sharedByReplicas: true,
  oneStatementWrites: true,
};

/** Statement texts spelled with numbered placeholders, kept while there are not more than this many. */
const MAX_SPELLED = 1000;

/**
 * Postgres through pg: a server shared by replicas. Claims lock what they take and skip what another holds
 * (FOR UPDATE SKIP LOCKED); appends that must follow one order take an advisory lock; a replica silent for
 * TAKEOVER_AFTER_SILENCE_MS loses its leases. A row and the rows it feeds are one statement (DML in a CTE), run
 * without BEGIN and COMMIT when nothing else shares its transaction; the hottest ones are prepared statements.
 */
export class PostgresEngine implements EngineAdapter {
  readonly capabilities = POSTGRES_CAPABILITIES;
  readonly transactions: Transactions;
  private readonly spelled = new Map<string, string>();
  private readonly announcer: PostgresEventsAnnouncer;

  constructor(private readonly dataSource: DataSource) {
    this.transactions = postgresTransactions(dataSource);
    this.announcer = new PostgresEventsAnnouncer(dataSource);
  }

  sql(text: string): string {
    let spelled = this.spelled.get(text);
    if (spelled === undefined) {
      spelled = numberedPlaceholders(text);
      if (this.spelled.size >= MAX_SPELLED) this.spelled.clear();
      this.spelled.set(text, spelled);
    }
    return spelled;
  }

  indexedBy(): string {
    return '';
  }

  position(haystack: string, needle: string): string {
    return `strpos(${haystack}, ${needle})`;
  }

  jsonMember(column: string, member: string): string {
    return `(${column})::jsonb ->> '${jsonMemberName(member)}'`;
  }

  async insertMany(manager: EntityManager, table: string, columns: readonly BulkColumn[], rows: unknown[][]) {
    if (rows.length === 0) return;
    const names = columns.map((column) => `"${column.name}"`).join(', ');
    const source = this.rowSource(columns, rows);
    await manager.query(this.sql(`INSERT INTO "${table}" (${names}) ${source.text}`), source.parameters);
  }

  rowSource(columns: readonly BulkColumn[], rows: unknown[][]): { text: string; parameters: unknown[] } {
    return {
      text: `SELECT * FROM unnest(${columns.map((column) => `?::${column.type}[]`).join(', ')})`,
      parameters: columns.map((_column, index) => rows.map((row) => row[index])),
    };
  }

  oneOf(type: BulkColumn['type'], values: readonly unknown[]): { text: string; parameters: unknown[] } {
    return { text: `= ANY(?::${type}[])`, parameters: [values] };
  }

  lockRows<T extends ObjectLiteral>(query: SelectQueryBuilder<T>): SelectQueryBuilder<T> {
    return query.setLock('pessimistic_write');
  }

  skipLocked(alias?: string): string {
    return alias === undefined ? ' FOR UPDATE SKIP LOCKED' : ` FOR UPDATE OF ${alias} SKIP LOCKED`;
  }

  async serialize(manager: EntityManager, key: number): Promise<void> {
    await manager.query('SELECT pg_advisory_xact_lock($1)', [key]);
  }

  unleased(alias: string): string {
    return `(${alias}."lease_expires_at_ms" IS NULL OR ${alias}."lease_expires_at_ms" <= ? OR ${silentOwnerLease(alias)})`;
  }

  unleasedParameters(nowMs: number, claimer: string | undefined): unknown[] {
    return [nowMs, ...silentOwnerParameters(nowMs, claimer ?? null)];
  }

  async heldBySilentOwner(manager: EntityManager, originId: number, claimer: string, nowMs: number): Promise<boolean> {
    const rows: unknown[] = await manager.query(
      this.sql(`SELECT 1 FROM "giro_movements" m WHERE m."origin_id" = ? AND ${silentOwnerLease('m')}`),
      [originId, ...silentOwnerParameters(nowMs, claimer)],
    );
    return rows.length > 0;
  }

  selectShares: EngineAdapter['selectShares'] = (manager, queue, shares, times) =>
    selectPostgresShares(this, manager, queue, shares, times);

  fencedWrite: EngineAdapter['fencedWrite'] = runPostgresFencedWrite;

  /** Batched with the others under way (PostgresUpdateBatch, one per data source). */
  writesWithoutHistory: EngineAdapter['writesWithoutHistory'] = (alone) => {
    const batch = updateBatchFor(this.dataSource, alone);
    return (write) => batch.write(write);
  };

  insertMovement: EngineAdapter['insertMovement'] = insertPostgresMovement;

  advanceOriginIdCounter: EngineAdapter['advanceOriginIdCounter'] = advancePostgresCounter;

  writeOutboxRows: EngineAdapter['writeOutboxRows'] = writePostgresOutboxRows;

  /**
   * One statement, without BEGIN and COMMIT: the rows are locked by the select (SKIP LOCKED: a concurrent claimer
   * takes others) and leased by the update that reads it, atomically.
   */
  async claimDeliveries(
    select: { sql: string; parameters: unknown[] },
    owner: string,
    leaseExpiresAtMs: number,
    connection?: DeliveryConnection,
  ): Promise<Record<string, unknown>[]> {
    const sql = this.sql(`WITH c AS (${select.sql}${this.skipLocked('d')})
        UPDATE "giro_webhook_deliveries" SET "lease_owner" = ?, "lease_expires_at_ms" = ?
        FROM c WHERE "giro_webhook_deliveries"."id" = c."id" RETURNING c.*`);
    const parameters = [...select.parameters, owner, leaseExpiresAtMs];
    const rows: Record<string, unknown>[] = connection
      ? await connection.run(sql, parameters)
      : await this.transactions.writeStatement(
          async (manager) => (await queryWithCount(manager, sql, parameters)).records ?? [],
        );
    return rows.sort((a, b) => Number(a.next_attempt_at_ms) - Number(b.next_attempt_at_ms));
  }

  recordDeliveryResults: EngineAdapter['recordDeliveryResults'] = (owner, batches, connection) =>
    recordPostgresDeliveryResults(this.transactions, owner, batches, connection);

  openDeliveryConnection(onNews: () => void): DeliveryConnection {
    return new PostgresDeliveryConnection(this.dataSource, onNews);
  }

  openHeartbeatConnection(): HeartbeatConnection {
    return new PostgresHeartbeatConnection(this.dataSource);
  }

  announceEventsCommitted(): void {
    this.announcer.announce();
  }

  /** With `lockKey`: under a session advisory lock, held on a connection of its own until `work` ends. */
  async exclusively<T>(work: () => Promise<T>, lockKey?: number): Promise<T> {
    if (lockKey === undefined) return work();
    const lockHolder = this.dataSource.createQueryRunner();
    try {
      await lockHolder.query('SELECT pg_advisory_lock($1)', [lockKey]);
      try {
        return await work();
      } finally {
        await lockHolder.query('SELECT pg_advisory_unlock($1)', [lockKey]);
      }
    } finally {
      await lockHolder.release();
    }
  }

  keepConnectionErrorsHandled(): void {
    keepPostgresClientErrorsHandled(this.dataSource);
  }

  async forgetRewrittenValues(): Promise<void> {}
}
