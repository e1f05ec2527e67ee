import { randomBytes } from 'node:crypto';
import { createTestDatabase, describeWithPostgres } from '@test-support/postgres';
import { TEST_POSTGRES_URL } from '@test-support/postgres-url';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { systemClock } from '../domain';
import { dataSourceOptionsFromUrl } from './engine/data-source-options';
import { engineOf } from './engine/database-engine';
import { TRANSFER_ENTITIES } from './entities';
import { MovementLookupIds1795982400000 } from './migrations';
import { POSTGRES_TEXT_INDEX } from './migrations/1796760000000-movement-text';
import { MovementStore } from './movement-store';
import { runTransferMigrations } from './run-transfer-migrations';
import { sampleIntent } from './testing/sample-intent';
import { describeEachEngine, describeOnPostgres } from './testing/test-engines';

/** Undoes the migrations run after `name`, the last first. */
async function undoAfter(dataSource: DataSource, name: string): Promise<void> {
  const last = async () =>
    (await dataSource.query('SELECT "name" FROM "migrations" ORDER BY "id" DESC LIMIT 1'))[0]?.name as string;
  while ((await last()) !== name) await dataSource.undoLastMigration();
}

const TABLES = [
  'giro_movements',
  'giro_movement_history',
  'giro_cancellations',
  'giro_origin_id_counter',
  'giro_sub_accounts',
  'giro_api_keys',
  'giro_anomaly_resolutions',
  'giro_limit_usage',
  'giro_audit',
  'giro_webhook_endpoints',
  'giro_webhook_events',
  'giro_webhook_deliveries',
  'giro_webhook_attempts',
  'giro_replicas',
  'giro_closed_days',
];
const ALL_MIGRATIONS = [
  'TransferSchemaBaseline1795291100000',
  'CreateTransferSchema1795291200000',
  'AddDueTimeIndex1795377600000',
  'DropNetworkIdIndex1795464000000',
  'PendingDueIndex1795550400000',
  'MovementsFillfactor1795636800000',
  'QueriesHeldUntil1795723200000',
  'SubAccounts1795896000000',
  'MovementLookupIds1795982400000',
  'WebhookOutbox1796068800000',
  'ApiKeys1796155200000',
  'AnomalyResolutions1796241600000',
  'LimitUsage1796328000000',
  'AuditTrail1796414400000',
  'Approvals1796500800000',
  'Replicas1796587200000',
  'MovementSearch1796673600000',
  'MovementText1796760000000',
  'MovementStatusAmount1796846400000',
  'MovementAmountText1796932800000',
  'MovementWords1797019200000',
  'MovementOrderCovering1797105600000',
  'SearchOnEngineIndexes1797192000000',
  'ApiKeyMinters1797278400000',
  'AuditTrailSealed1797364800000',
  'WebhookEventTraceParent1797408000000',
  'Payees1797451200000',
  'ScheduledTransfers1797537600000',
  'Statements1797624000000',
  'DailyClose1797710400000',
  'AccountQueues1797796800000',
  'TextIndexWithoutPositions1797969600000',
  'UnknownDebits1798056000000',
  'AmountFromStatusIndex1798315200000',
  'StatementRowsUncheckedKeys1798660800000',
  'TextIndexAtCommit1798747200000',
];

describeEachEngine('transfer migrations', (engine) => {
  it('create every table, in agreement with the entities', async () => {
    const database = await engine.createDatabase();
    const dataSource = await database.connect();
    expect(await runTransferMigrations(dataSource)).toEqual(ALL_MIGRATIONS);
    const runner = dataSource.createQueryRunner();
    try {
      for (const metadata of dataSource.entityMetadatas) {
        const table = await runner.getTable(metadata.tableName);
        if (!table) throw new Error(`table ${metadata.tableName} is missing`);
        const shape = (columns: { name: string; nullable: boolean }[]) =>
          columns.map((column) => `${column.name}${column.nullable ? '?' : ''}`).sort();
        expect(shape(table.columns.map((c) => ({ name: c.name, nullable: c.isNullable })))).toEqual(
          shape(metadata.columns.map((c) => ({ name: c.databaseName, nullable: c.isNullable }))),
        );
        expect(table.indices.map((index) => index.name).sort()).toEqual(
          metadata.indices.map((index) => index.name).sort(),
        );
        expect(table.foreignKeys.map((key) => `${key.columnNames}->${key.referencedTableName}`).sort()).toEqual(
          metadata.foreignKeys.map((key) => `${key.columnNames}->${key.referencedTablePath}`).sort(),
        );
      }
      expect(dataSource.entityMetadatas.map((metadata) => metadata.tableName).sort()).toEqual([...TABLES].sort());
    } finally {
      await runner.release();
    }
    if (engine.kind === 'postgres') {
      // What TypeORM would change to make the schema match the entities: nothing. (Its SQLite diff cannot
      // read foreign key names back from SQLite, so there it always proposes to rebuild the tables.)
      const pending = await dataSource.driver.createSchemaBuilder().log();
      expect(pending.upQueries.map((query) => query.query)).toEqual([]);
    }
  });

  it('are idempotent: a second run, also from another data source, has nothing to do', async () => {
    const database = await engine.createDatabase();
    const first = await database.connectMigrated();
    expect(await runTransferMigrations(first)).toEqual([]);
    const second = await database.connect();
    expect(await runTransferMigrations(second)).toEqual([]);
  });

  it('let replicas that start together migrate once', async () => {
    const database = await engine.createDatabase();
    // SQLite: the same file from one process; Postgres: the advisory lock orders the two.
    const replicas = await Promise.all([database.connect(), database.connect()]);
    const ran = await Promise.all(replicas.map((replica) => runTransferMigrations(replica)));
    expect(ran.flat()).toEqual(ALL_MIGRATIONS);
  });

  it('make the history append-only', async () => {
    const database = await engine.createDatabase();
    const dataSource = await database.connectMigrated();
    const store = new MovementStore(dataSource, systemClock);
    const { intent, fingerprint } = sampleIntent(1001);
    await store.recordIntent(intent, fingerprint, { sendNow: false });
    await expect(dataSource.query(`UPDATE "giro_movement_history" SET "to_status" = 'FAILED'`)).rejects.toThrow(
      /append-only/,
    );
    await expect(dataSource.query('DELETE FROM "giro_movement_history"')).rejects.toThrow(/append-only/);
    expect((await store.findByOriginId(1001))?.history.map((row) => row.to)).toEqual(['PENDING']);
  });

  it('refuse a data source that does not list them', async () => {
    const database = await engine.createDatabase();
    const options = dataSourceOptionsFromUrl(database.url);
    const dataSource = new DataSource({ ...options, entities: TRANSFER_ENTITIES, migrations: [] });
    await dataSource.initialize();
    try {
      await expect(runTransferMigrations(dataSource)).rejects.toThrow(/add TRANSFER_MIGRATIONS/);
      const runner = dataSource.createQueryRunner();
      expect(await runner.hasTable('giro_movements')).toBe(false);
      await runner.release();
    } finally {
      await dataSource.destroy();
    }
  });

  it('keep a DEBIN id per movement, read it and network ids through partial indexes, and give them back when reverted', async () => {
    const database = await engine.createDatabase();
    const dataSource = await database.connectMigrated();
    const store = new MovementStore(dataSource, systemClock);
    const runner = dataSource.createQueryRunner();
    const debinIndex = async () =>
      ((await runner.getTable('giro_movements'))?.indices ?? []).find(
        (index) => index.name === 'IDX_giro_movements_debin_id',
      );
    try {
      const { intent, fingerprint } = sampleIntent(1002);
      await store.recordIntent(intent, fingerprint, { sendNow: false });
      expect(await store.recordUnleasedQuery(1002, { heldUntil: new Date(), debinId: 'DEBIN-1002' })).toBe(true);
      expect((await store.list({ debinId: 'DEBIN-1002', limit: 1 })).items.map((row) => row.originId)).toEqual([1002]);
      expect(await debinIndex()).toMatchObject({
        columnNames: ['debin_id'],
        where: expect.stringMatching(/debin_id.*IS NOT NULL/i),
      });
      // A lookup by DEBIN id can be read through the partial index (Postgres: told not to scan, as a table this
      // small is scanned anyway).
      const planOf = async (where: string) => {
        const lookup = `SELECT * FROM "giro_movements" WHERE ${where} ORDER BY "origin_id" LIMIT 2`;
        if (engine.kind === 'postgres') await runner.query('SET enable_seqscan = off');
        const plan = await runner.query(
          engine.kind === 'postgres' ? `EXPLAIN ${lookup}` : `EXPLAIN QUERY PLAN ${lookup}`,
        );
        if (engine.kind === 'postgres') await runner.query('RESET enable_seqscan');
        return JSON.stringify(plan);
      };
      expect(await planOf(`"debin_id" = 'DEBIN-1002'`)).toContain('IDX_giro_movements_debin_id');
      expect(await planOf(`"network_id" = 'NET-1'`)).toContain('IDX_giro_movements_network_id');

      await new MovementLookupIds1795982400000().down(runner);
      expect(await debinIndex()).toBeUndefined();
      expect(((await runner.getTable('giro_movements'))?.indices ?? []).map((index) => index.name)).not.toContain(
        'IDX_giro_movements_network_id',
      );
      expect((await runner.getTable('giro_movements'))?.findColumnByName('debin_id')).toBeUndefined();
      await new MovementLookupIds1795982400000().up(runner);
      expect(await debinIndex()).toBeDefined();
    } finally {
      await runner.release();
    }
  });

  it('can be reverted, one migration at a time', async () => {
    const database = await engine.createDatabase();
    const dataSource = await database.connectMigrated();
    const runner = dataSource.createQueryRunner();
    const indexNames = async () =>
      ((await runner.getTable('giro_movements'))?.indices ?? []).map((index) => index.name).sort();
    // The table's storage options (Postgres); SQLite has none.
    const fillfactor = async (): Promise<string | null> => {
      if (engine.kind !== 'postgres') return null;
      const [row] = await dataSource.query(`SELECT array_to_string(reloptions, ',') AS options FROM pg_class
        WHERE oid = 'giro_movements'::regclass`);
      return row.options;
    };
    const hasQueriesHeldUntil = async () =>
      (await runner.getTable('giro_movements'))?.findColumnByName('queries_held_until_ms') !== undefined;
    const hasDebinId = async () =>
      (await runner.getTable('giro_movements'))?.findColumnByName('debin_id') !== undefined;
    const cancellationColumns = async () =>
      ((await runner.getTable('giro_cancellations'))?.columns ?? []).map((column) => column.name);
    const hasUsageDay = async () =>
      (await runner.getTable('giro_movements'))?.findColumnByName('usage_day') !== undefined;
    const hasApprovalExpiry = async () =>
      (await runner.getTable('giro_movements'))?.findColumnByName('approval_expires_at_ms') !== undefined;
    const hasSearchColumns = async () =>
      (await runner.getTable('giro_movements'))?.findColumnByName('amount_cents') !== undefined;
    // The columns of the amount's index (TypeORM reads Postgres's in the table's order, not the index's).
    const amountIndexColumns = async () =>
      (await runner.getTable('giro_movements'))?.indices
        .find((index) => index.name === 'IDX_giro_movements_amount')
        ?.columnNames.sort();
    try {
      // The creation time's indexes (TypeORM reads Postgres's columns in the table's order, not the index's).
      const indexColumns = async (name: string) =>
        (await runner.getTable('giro_movements'))?.indices.find((index) => index.name === name)?.columnNames.sort();
      const createdIndexColumns = () => indexColumns('IDX_giro_movements_created');
      const statusIndexColumns = () => indexColumns('IDX_giro_movements_status_created');
      const wordTables = async () =>
        [await runner.hasTable('giro_movement_words'), await runner.hasTable('giro_words')].filter(Boolean).length;
      // One amount is read from the (status, amount_cents, …) index: the amount's own is gone, and undone comes back.
      expect(await amountIndexColumns()).toBeUndefined();
      await undoAfter(dataSource, 'TextIndexWithoutPositions1797969600000');
      expect(await amountIndexColumns()).toEqual(['amount_cents', 'created_at_ms', 'origin_id']);
      expect(await runner.hasTable('giro_payees')).toBe(true);
      await undoAfter(dataSource, 'WebhookEventTraceParent1797408000000');
      expect(await runner.hasTable('giro_payees')).toBe(false);
      const hasEventTraceParent = async () =>
        (await runner.getTable('giro_webhook_events'))?.findColumnByName('trace_parent') !== undefined;
      expect(await hasEventTraceParent()).toBe(true);
      await dataSource.undoLastMigration();
      expect(await hasEventTraceParent()).toBe(false);
      const auditTriggers = async () =>
        (
          await dataSource.query(
            engine.kind === 'sqlite'
              ? `SELECT "name" FROM sqlite_master WHERE "type" = 'trigger' AND "tbl_name" = 'giro_audit' ORDER BY 1`
              : `SELECT "tgname" AS "name" FROM pg_trigger WHERE "tgrelid" = 'giro_audit'::regclass AND NOT "tgisinternal" ORDER BY 1`,
          )
        ).map((row: { name: string }) => row.name);
      const hasMinter = async () =>
        (await runner.getTable('giro_api_keys'))?.findColumnByName('created_by_key_id') !== undefined;
      expect(await auditTriggers()).toEqual(
        engine.kind === 'sqlite'
          ? ['TRG_giro_audit_continues_chain', 'TRG_giro_audit_no_delete', 'TRG_giro_audit_no_update']
          : ['TRG_giro_audit_append_only', 'TRG_giro_audit_no_truncate'],
      );
      await dataSource.undoLastMigration();
      expect(await auditTriggers()).toEqual(
        engine.kind === 'sqlite'
          ? ['TRG_giro_audit_no_delete', 'TRG_giro_audit_no_update']
          : ['TRG_giro_audit_append_only'],
      );
      expect(await hasMinter()).toBe(true);
      await dataSource.undoLastMigration();
      expect(await hasMinter()).toBe(false);
      expect(await amountIndexColumns()).toEqual(['amount_cents', 'created_at_ms', 'origin_id']);
      expect(await wordTables()).toBe(0);
      await dataSource.undoLastMigration();
      expect(await amountIndexColumns()).toEqual(['amount_cents', 'created_at_ms', 'description', 'origin_id']);
      expect(await createdIndexColumns()).toEqual(['amount_cents', 'created_at_ms', 'description', 'origin_id']);
      expect(await statusIndexColumns()).toEqual(['amount_cents', 'created_at_ms', 'origin_id', 'status']);
      await dataSource.undoLastMigration();
      expect(await createdIndexColumns()).toEqual(['created_at_ms', 'origin_id']);
      expect(await statusIndexColumns()).toEqual(['created_at_ms', 'origin_id', 'status']);
      expect(await wordTables()).toBe(engine.kind === 'postgres' ? 2 : 0);
      await dataSource.undoLastMigration();
      expect(await wordTables()).toBe(0);
      expect(await amountIndexColumns()).toEqual(['amount_cents', 'created_at_ms', 'description', 'origin_id']);
      await dataSource.undoLastMigration();
      expect(await amountIndexColumns()).toEqual(['amount_cents', 'created_at_ms', 'origin_id']);
      expect(await indexNames()).toContain('IDX_giro_movements_status_amount');
      await dataSource.undoLastMigration();
      expect(await indexNames()).not.toContain('IDX_giro_movements_status_amount');
      expect(await textIndexOf(dataSource)).toBe(true);
      await dataSource.undoLastMigration();
      expect(await textIndexOf(dataSource)).toBe(false);
      expect(await hasSearchColumns()).toBe(true);
      await dataSource.undoLastMigration();
      expect(await hasSearchColumns()).toBe(false);
      expect(await runner.hasTable('giro_replicas')).toBe(true);
      await dataSource.undoLastMigration();
      expect(await runner.hasTable('giro_replicas')).toBe(false);
      expect(await hasApprovalExpiry()).toBe(true);
      await dataSource.undoLastMigration();
      expect(await hasApprovalExpiry()).toBe(false);
      expect(await indexNames()).not.toContain('IDX_giro_movements_awaiting_approval');
      // The old status check is back: a status it did not know is refused again.
      await expect(
        dataSource.query(`INSERT INTO "giro_movements" ("origin_id", "intent", "fingerprint", "status", "amount",
          "currency_id", "created_at_ms", "updated_at_ms") VALUES (1, '{}', 'f', 'REJECTED', '1.00', 'ARS', 0, 0)`),
      ).rejects.toThrow(/CHK_giro_movements_status|CHECK constraint/);
      expect(await runner.hasTable('giro_audit')).toBe(true);
      await dataSource.undoLastMigration();
      expect(await runner.hasTable('giro_audit')).toBe(false);
      expect(await runner.hasTable('giro_limit_usage')).toBe(true);
      expect(await hasUsageDay()).toBe(true);
      await dataSource.undoLastMigration();
      expect(await runner.hasTable('giro_limit_usage')).toBe(false);
      expect(await hasUsageDay()).toBe(false);
      expect(await runner.hasTable('giro_anomaly_resolutions')).toBe(true);
      expect(await cancellationColumns()).toEqual(
        expect.arrayContaining(['reference', 'acknowledged_by_key_id', 'acknowledged_by_name']),
      );
      await dataSource.undoLastMigration();
      expect(await runner.hasTable('giro_anomaly_resolutions')).toBe(false);
      expect(await cancellationColumns()).not.toContain('reference');
      expect(((await runner.getTable('giro_movement_history'))?.indices ?? []).map((index) => index.name)).toEqual([
        'IDX_giro_movement_history_origin_id',
      ]);
      expect(await runner.hasTable('giro_api_keys')).toBe(true);
      await dataSource.undoLastMigration();
      expect(await runner.hasTable('giro_api_keys')).toBe(false);
      expect(await runner.hasTable('giro_webhook_deliveries')).toBe(true);
      await dataSource.undoLastMigration();
      expect(await runner.hasTable('giro_webhook_deliveries')).toBe(false);
      expect(await runner.hasTable('giro_webhook_endpoints')).toBe(false);
      expect(await hasDebinId()).toBe(true);
      expect(await indexNames()).toEqual([
        'IDX_giro_movements_debin_id',
        'IDX_giro_movements_network_id',
        'IDX_giro_movements_next_query_at',
        'IDX_giro_movements_pending_due',
      ]);
      await dataSource.undoLastMigration();
      expect(await hasDebinId()).toBe(false);
      expect(await indexNames()).toEqual(['IDX_giro_movements_next_query_at', 'IDX_giro_movements_pending_due']);
      expect(await runner.hasTable('giro_sub_accounts')).toBe(true);
      await dataSource.undoLastMigration();
      expect(await runner.hasTable('giro_sub_accounts')).toBe(false);
      expect(await hasQueriesHeldUntil()).toBe(true);
      await dataSource.undoLastMigration();
      expect(await hasQueriesHeldUntil()).toBe(false);
      expect(await indexNames()).toEqual(['IDX_giro_movements_next_query_at', 'IDX_giro_movements_pending_due']);
      expect(await fillfactor()).toBe(engine.kind === 'postgres' ? 'fillfactor=80' : null);
      await dataSource.undoLastMigration();
      expect(await fillfactor()).toBeNull();
      expect(await indexNames()).toEqual(['IDX_giro_movements_next_query_at', 'IDX_giro_movements_pending_due']);
      await dataSource.undoLastMigration();
      expect(await indexNames()).toEqual(['IDX_giro_movements_due', 'IDX_giro_movements_next_query_at']);
      await dataSource.undoLastMigration();
      expect(await indexNames()).toEqual([
        'IDX_giro_movements_due',
        'IDX_giro_movements_network_id',
        'IDX_giro_movements_next_query_at',
      ]);
      await dataSource.undoLastMigration();
      expect(await indexNames()).toEqual(['IDX_giro_movements_due', 'IDX_giro_movements_network_id']);
      await dataSource.undoLastMigration();
      for (const table of TABLES) expect(await runner.hasTable(table)).toBe(false);
    } finally {
      await runner.release();
    }
  });
});

describeWithPostgres('transfer migrations by a role that may not create pg_trgm', () => {
  it('leave the text index out and run every migration', async () => {
    const database = await createTestDatabase();
    // A role with the schema's rights but not CREATE on the database, which a trusted extension needs.
    const role = `giro_no_extension_${randomBytes(4).toString('hex')}`;
    const admin = new Client({ connectionString: database.url });
    await admin.connect();
    const url = new URL(database.url);
    url.username = role;
    const dataSource = new DataSource(dataSourceOptionsFromUrl(url.toString()));
    try {
      // Identifiers cannot be bound parameters; `role` is built above from hex only.
      await admin.query(`CREATE ROLE "${role}" LOGIN`);
      await admin.query(`GRANT ALL ON SCHEMA public TO "${role}"`);
      await dataSource.initialize();
      expect(await runTransferMigrations(dataSource)).toEqual(ALL_MIGRATIONS);
      expect(await textIndexOf(dataSource)).toBe(false);
      const extensions = await admin.query(`SELECT "extname" FROM pg_extension WHERE "extname" = 'pg_trgm'`);
      expect(extensions.rows).toEqual([]);
    } finally {
      if (dataSource.isInitialized) await dataSource.destroy();
      await admin.end();
      await database.drop();
      const cluster = new Client({ connectionString: TEST_POSTGRES_URL });
      await cluster.connect();
      await cluster.query(`DROP ROLE IF EXISTS "${role}"`).finally(() => cluster.end());
    }
  });
});

/** Whether the description's text index is there: SQLite's FTS5 table, or Postgres's trigram index. */
async function textIndexOf(dataSource: DataSource): Promise<boolean> {
  const [row] =
    engineOf(dataSource) === 'postgres'
      ? await dataSource.query(`SELECT COUNT(*) AS "found" FROM pg_indexes WHERE indexname = $1`, [POSTGRES_TEXT_INDEX])
      : await dataSource.query(`SELECT COUNT(*) AS "found" FROM sqlite_master WHERE name = 'giro_movement_text'`);
  return Number(row.found) === 1;
}

describeOnPostgres(
  'the words of descriptions, kept by a trigger, then dropped (SearchOnEngineIndexes1797192000000)',
  (engine) => {
    it('go with their trigger, and come back filled when the migration is undone', async () => {
      const dataSource = await (await engine.createDatabase()).connectMigrated();
      // The migrations after it, then it.
      const undoThroughSearchOnEngineIndexes = async () => {
        await undoAfter(dataSource, 'SearchOnEngineIndexes1797192000000');
        await dataSource.undoLastMigration();
      };
      await undoThroughSearchOnEngineIndexes();
      // Written by hand: today's store writes columns the schema of that step has not got yet.
      const record = async (originId: number, description: string) => {
        const { intent, fingerprint } = sampleIntent(originId, { description });
        await dataSource.query(
          `INSERT INTO "giro_movements" ("origin_id", "intent", "fingerprint", "status", "amount", "currency_id",
           "description", "created_at_ms", "updated_at_ms") VALUES ($1, $2, $3, 'PENDING', $4, '032', $5, $6, $6)`,
          [originId, JSON.stringify(intent), fingerprint, intent.amount, description, Date.now()],
        );
      };
      await record(1, 'Embargo judicial, FC A-0001-42');
      const words = async () =>
        (await dataSource.query('SELECT "word" FROM "giro_movement_words" ORDER BY 1')).map(
          (row: { word: string }) => row.word,
        );
      expect(await words()).toEqual(['0001', '42', 'a', 'embargo', 'fc', 'judicial']);
      await runTransferMigrations(dataSource);
      const runner = dataSource.createQueryRunner();
      try {
        expect([await runner.hasTable('giro_movement_words'), await runner.hasTable('giro_words')]).toEqual([
          false,
          false,
        ]);
      } finally {
        await runner.release();
      }
      const triggers = await dataSource.query(
        `SELECT "tgname" FROM pg_trigger WHERE "tgrelid" = '"giro_movements"'::regclass AND "tgname" LIKE '%words%'`,
      );
      expect(triggers).toEqual([]);
      await record(2, 'Sueldo marzo');
      await undoThroughSearchOnEngineIndexes();
      expect(await words()).toEqual(['0001', '42', 'a', 'embargo', 'fc', 'judicial', 'marzo', 'sueldo']);
    });
  },
);
