import { dataSourceOptionsFromUrl, runTransferMigrations } from '@giro/transfer-module';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { type Backlog, backlogChunks, backlogConstants } from './backlog';

/** The database the benchmark creates (and drops) on the Postgres server it is given (literal in the DDL below). */
export const BENCH_DATABASE = 'giro_bench';

const INSERT = `INSERT INTO giro_movements
  (origin_id, intent, fingerprint, status, amount, currency_id, attempts, queries, last_answer_at_ms,
   next_query_at_ms, version, created_at_ms, updated_at_ms)
  SELECT id, intent, fingerprint, $5, $6, $7, $8, 0, $9, next_query_at_ms, 1, $10, $10
  FROM unnest($1::bigint[], $2::text[], $3::text[], $4::bigint[]) AS seeded(id, intent, fingerprint, next_query_at_ms)`;

/** The URL of the benchmark's database on the server of `serverUrl`. */
export function benchDatabaseUrl(serverUrl: string, database = BENCH_DATABASE): string {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

/** True when a Postgres server answers at `serverUrl`. */
export async function postgresReachable(serverUrl: string): Promise<boolean> {
  const client = new Client({ connectionString: serverUrl, connectionTimeoutMillis: 3_000 });
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * Creates the benchmark's database afresh (dropping an old one) and runs giro's migrations in it. `database`: a
 * name of the benchmark's own (a constant, not a value from outside), BENCH_DATABASE unless given.
 */
export async function createBenchDatabase(serverUrl: string, database = BENCH_DATABASE): Promise<string> {
  await onServer(serverUrl, async (client) => {
    await client.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    await client.query(`CREATE DATABASE ${database}`);
  });
  const url = benchDatabaseUrl(serverUrl, database);
  const dataSource = await new DataSource(dataSourceOptionsFromUrl(url)).initialize();
  try {
    await runTransferMigrations(dataSource);
  } finally {
    await dataSource.destroy();
  }
  return url;
}

export async function dropBenchDatabase(serverUrl: string, database = BENCH_DATABASE): Promise<void> {
  await onServer(serverUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`));
}

/**
 * Writes every dirty page of the server out now; false when the bench's role may not (CHECKPOINT needs a
 * superuser or pg_checkpoint).
 */
export async function checkpoint(databaseUrl: string): Promise<boolean> {
  return onServer(databaseUrl, (client) =>
    client.query('CHECKPOINT').then(
      () => true,
      (error: { code?: string }) => {
        if (error.code === '42501') return false; // insufficient_privilege
        throw error;
      },
    ),
  );
}

/** Empties giro's tables and inserts the backlog, 10 000 rows per statement, then refreshes the statistics. */
export async function seedPostgresBacklog(databaseUrl: string, backlog: Backlog): Promise<void> {
  await onServer(databaseUrl, async (client) => {
    // CASCADE: with every table that refers to these (anomaly resolutions…): the bench's database is its own.
    await client.query('TRUNCATE giro_cancellations, giro_movement_history, giro_movements CASCADE');
    const fixed = backlogConstants(backlog);
    for (const rows of backlogChunks(backlog, 10_000)) {
      await client.query(INSERT, [
        rows.map((row) => row.originId),
        rows.map((row) => row.intent),
        rows.map((row) => row.fingerprint),
        rows.map((row) => row.nextQueryAtMs),
        fixed.status,
        fixed.amount,
        fixed.currencyId,
        fixed.attempts,
        fixed.lastAnswerAtMs,
        fixed.createdAtMs,
      ]);
    }
    await client.query('VACUUM ANALYZE giro_movements');
  });
}

async function onServer<T>(url: string, work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}
