import { dataSourceOptionsFromUrl, runTransferMigrations, systemClock } from '@giro/transfer-module';
import Database from 'better-sqlite3';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { type Backlog, backlogChunks, backlogConstants } from '../sweep/backlog';
import { createBenchDatabase } from '../sweep/seed-postgres';
import { bankAnswerOf, MovementStore, type MovementStoreInstance, networkIdOf } from './lookup-index-store';

/** The index under test: what a migration would add, over the movements that have a network id only. */
export const NETWORK_ID_INDEX =
  'CREATE INDEX "IDX_giro_movements_network_id" ON "giro_movements" ("network_id") WHERE "network_id" IS NOT NULL';
const DROP_NETWORK_ID_INDEX = 'DROP INDEX "IDX_giro_movements_network_id"';

/** One database with the seeded movements, and the store on it. */
export interface BenchDatabase {
  engine: 'SQLite' | 'Postgres';
  store: MovementStoreInstance;
  dataSource: DataSource;
  setIndex(present: boolean): Promise<void>;
  /** Postgres: bytes of WAL written so far (the whole server's) and of giro_movements' indexes; SQLite: null. */
  writeCounters(): Promise<{ walBytes: number; indexBytes: number } | null>;
  close(): Promise<void>;
}

const SEED_COLUMNS = `(origin_id, intent, fingerprint, status, amount, currency_id, bank_movement_id, network_id,
   network, posting_datetime, last_bank_answer, attempts, queries, last_answer_at_ms, next_query_at_ms, version,
   created_at_ms, updated_at_ms)`;

/** The rows of the backlog as answered movements: IN_PROGRESS, with the bank's ids and last answer, all due. */
function* answeredRows(backlog: Backlog) {
  const fixed = backlogConstants(backlog);
  for (const rows of backlogChunks(backlog, 10_000)) {
    yield rows.map((row) => {
      const intent = JSON.parse(row.intent);
      return {
        ...row,
        ...fixed,
        bankMovementId: `mov-bench-${row.originId}`,
        networkId: networkIdOf(row.originId),
        answer: JSON.stringify(bankAnswerOf(intent, 'IN_PROGRESS')),
        nextQueryAtMs: backlog.nowMs - 1_000,
      };
    });
  }
}

export async function sqliteBenchDatabase(file: string, backlog: Backlog): Promise<BenchDatabase> {
  const migrating = await new DataSource(dataSourceOptionsFromUrl(`sqlite:${file}`)).initialize();
  await runTransferMigrations(migrating);
  await migrating.destroy();
  const db = new Database(file);
  const insert = db.prepare(
    `INSERT INTO giro_movements ${SEED_COLUMNS} VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'COELSA', '2026-11-24T10:00:00Z', ?, ?, 0, ?, ?, 1, ?, ?)`,
  );
  db.transaction(() => {
    for (const rows of answeredRows(backlog)) {
      for (const row of rows) {
        insert.run(
          row.originId,
          row.intent,
          row.fingerprint,
          row.status,
          row.amount,
          row.currencyId,
          row.bankMovementId,
          row.networkId,
          row.answer,
          row.attempts,
          row.lastAnswerAtMs,
          row.nextQueryAtMs,
          row.createdAtMs,
          row.createdAtMs,
        );
      }
    }
  })();
  db.exec('ANALYZE');
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
  const dataSource = await new DataSource(dataSourceOptionsFromUrl(`sqlite:${file}`)).initialize();
  return {
    engine: 'SQLite',
    store: new MovementStore(dataSource, systemClock),
    dataSource,
    async setIndex(present) {
      await dataSource.query(present ? NETWORK_ID_INDEX : DROP_NETWORK_ID_INDEX);
      await dataSource.query('ANALYZE');
    },
    async writeCounters() {
      return null;
    },
    close: () => dataSource.destroy(),
  };
}

export async function postgresBenchDatabase(
  serverUrl: string,
  backlog: Backlog,
  database?: string,
): Promise<BenchDatabase> {
  const url = await createBenchDatabase(serverUrl, database);
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    for (const rows of answeredRows(backlog)) {
      await client.query(
        `INSERT INTO giro_movements ${SEED_COLUMNS}
         SELECT id, intent, fingerprint, $8, $9, $10, bank_movement_id, network_id, 'COELSA', '2026-11-24T10:00:00Z',
                answer, 1, 0, $11, next_query_at_ms, 1, $12, $12
         FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::bigint[])
           AS seeded(id, intent, fingerprint, bank_movement_id, network_id, answer, next_query_at_ms)`,
        [
          rows.map((row) => row.originId),
          rows.map((row) => row.intent),
          rows.map((row) => row.fingerprint),
          rows.map((row) => row.bankMovementId),
          rows.map((row) => row.networkId),
          rows.map((row) => row.answer),
          rows.map((row) => row.nextQueryAtMs),
          rows[0].status,
          rows[0].amount,
          rows[0].currencyId,
          rows[0].lastAnswerAtMs,
          rows[0].createdAtMs,
        ],
      );
    }
    await client.query('VACUUM ANALYZE giro_movements');
  } finally {
    await client.end();
  }
  const dataSource = await new DataSource(dataSourceOptionsFromUrl(url)).initialize();
  return {
    engine: 'Postgres',
    store: new MovementStore(dataSource, systemClock),
    dataSource,
    async setIndex(present) {
      await dataSource.query(present ? NETWORK_ID_INDEX : DROP_NETWORK_ID_INDEX);
      await dataSource.query('ANALYZE giro_movements');
    },
    async writeCounters() {
      const [row] = await dataSource.query(`SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')::bigint AS wal,
        pg_indexes_size('giro_movements')::bigint AS indexes`);
      return { walBytes: Number(row.wal), indexBytes: Number(row.indexes) };
    },
    close: () => dataSource.destroy(),
  };
}
