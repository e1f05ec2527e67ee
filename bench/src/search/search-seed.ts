import { existsSync, statSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { completeCbuCvu, completeCuit, dataSourceOptionsFromUrl, runTransferMigrations } from '@giro/transfer-module';
import Database from 'better-sqlite3';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import {
  insertHistorySql,
  insertMovementsSql,
  PARTY_TABLES,
  postgresDrawsSql,
  SEED_SHAPE,
  type SeedEngine,
  sqliteDrawsSql,
} from './search-seed-sql';

/** The search bench's own database on the Postgres server (created, and dropped unless kept). */
export const SEARCH_DATABASE = 'giro_bench_search';
/** The first originId of the seeded history. */
export const FIRST_ORIGIN_ID = 100_000_000;
/** Movements inserted per statement (one transaction each on Postgres, one for all on SQLite). */
const CHUNK = 1_000_000;

export interface SeededHistory {
  engine: SeedEngine;
  url: string;
  movements: number;
  historyRows: number;
  /** Seconds to insert, build the indexes and refresh the statistics (0 when an existing database was reused). */
  seedSeconds: number;
  /** Size on disk of the database (SQLite: the file; Postgres: pg_database_size), bytes. */
  bytes: number;
  newestAtMs: number;
}

/** The accounts and CUITs of the history: valid check digits, stable from run to run. */
export function parties() {
  const account = (entity: string, index: number) => completeCbuCvu(entity, String(index).padStart(13, '0'));
  const cuit = (prefix: string, index: number) => {
    for (let tweak = 0; ; tweak++) {
      const value = completeCuit(`${prefix}${String(index * 10 + tweak).padStart(8, '0')}`);
      if (value !== undefined) return value;
    }
  };
  return {
    destinations: Array.from({ length: SEED_SHAPE.destinations }, (_, i) => ({
      idx: i,
      address: account(i % 2 === 0 ? '2850590' : '0000003', 4_000_000 + i),
      personId: cuit(i % 3 === 0 ? '30' : '20', 1_000_000 + i),
    })),
    sources: Array.from({ length: SEED_SHAPE.sources }, (_, i) => ({
      idx: i,
      address: account('0000003', 1_000_000_000 + i),
      personId: cuit('30', 7_123_456 + i),
    })),
  };
}

/** The newest movement's creation time: a round minute before now, so that the history ends about now. */
function newestAtNow(): number {
  return Math.floor(Date.now() / 60_000) * 60_000;
}

async function migrate(url: string): Promise<void> {
  const dataSource = await new DataSource(dataSourceOptionsFromUrl(url)).initialize();
  try {
    await runTransferMigrations(dataSource);
  } finally {
    await dataSource.destroy();
  }
}

/**
 * A SQLite file of `movements` movements and their history. The indexes of both tables are dropped while
 * inserting and built again after (from their own DDL, as the migrations made them), one transaction for all
 * the rows. `reuse`: an existing file with that many movements is taken as it is.
 */
export async function seedSqlite(
  file: string,
  movements: number,
  options: { reuse: boolean; analyze: boolean; log: (message: string) => void },
): Promise<SeededHistory> {
  if (options.reuse && existsSync(file)) {
    const db = new Database(file, { readonly: true });
    try {
      const { count, newest } = db
        .prepare('SELECT COUNT(*) AS count, MAX(created_at_ms) AS newest FROM giro_movements')
        .get() as { count: number; newest: number };
      if (count === movements) {
        const { rows } = db.prepare('SELECT COUNT(*) AS rows FROM giro_movement_history').get() as { rows: number };
        options.log(`SQLite: reusing ${file} (${count} movements)`);
        return {
          engine: 'sqlite',
          url: `sqlite:${file}`,
          movements,
          historyRows: rows,
          seedSeconds: 0,
          bytes: statSync(file).size,
          newestAtMs: newest,
        };
      }
    } finally {
      db.close();
    }
  }
  const started = performance.now();
  const url = `sqlite:${file}`;
  await migrate(url);
  const newestAtMs = newestAtNow();
  const db = new Database(file);
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = OFF');
    db.pragma('foreign_keys = OFF');
    db.pragma('cache_size = -262144');
    db.pragma('temp_store = MEMORY');
    const indexes = db
      .prepare(
        "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL AND tbl_name IN ('giro_movements', 'giro_movement_history')",
      )
      .all() as { name: string; sql: string }[];
    const { destinations, sources } = parties();
    db.transaction(() => {
      for (const { name } of indexes) db.exec(`DROP INDEX "${name}"`);
      for (const [table, rows] of [
        [PARTY_TABLES.destinations, destinations],
        [PARTY_TABLES.sources, sources],
      ] as const) {
        db.exec(`CREATE TEMP TABLE ${table} (idx INTEGER PRIMARY KEY, address TEXT, person_id TEXT)`);
        const insert = db.prepare(`INSERT INTO ${table} VALUES (?, ?, ?)`);
        for (const row of rows) insert.run(row.idx, row.address, row.personId);
      }
      const history = db.prepare(insertHistorySql('sqlite'));
      // The description's FTS5 index, which giro writes in the transaction that inserts the movements (no trigger).
      const text = db.prepare(`INSERT INTO "giro_movement_text" ("rowid", "description")
        SELECT "origin_id", "description" FROM "giro_movements" WHERE "origin_id" BETWEEN ? AND ?`);
      for (let low = 0; low < movements; low += CHUNK) {
        const high = Math.min(movements, low + CHUNK);
        db.exec(sqliteDrawsSql(low, high));
        db.exec(insertMovementsSql('sqlite', { total: movements, firstOriginId: FIRST_ORIGIN_ID, newestAtMs }));
        db.exec(`DROP TABLE ${PARTY_TABLES.draws}`);
        history.run(FIRST_ORIGIN_ID + low, FIRST_ORIGIN_ID + high - 1);
        text.run(FIRST_ORIGIN_ID + low, FIRST_ORIGIN_ID + high - 1);
        options.log(`SQLite: ${high} movements inserted`);
      }
      for (const { sql } of indexes) db.exec(sql);
      db.exec(`DROP TABLE ${PARTY_TABLES.destinations}; DROP TABLE ${PARTY_TABLES.sources}`);
    })();
    options.log(`SQLite: indexes built (${indexes.length})`);
    if (options.analyze) db.exec('ANALYZE');
    db.pragma('wal_checkpoint(TRUNCATE)');
    const { rows } = db.prepare('SELECT COUNT(*) AS rows FROM giro_movement_history').get() as { rows: number };
    return {
      engine: 'sqlite',
      url,
      movements,
      historyRows: rows,
      seedSeconds: (performance.now() - started) / 1000,
      bytes: statSync(file).size,
      newestAtMs,
    };
  } finally {
    db.close();
  }
}

/** The URL of the search bench's database on the server of `serverUrl`. */
export function searchDatabaseUrl(serverUrl: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${SEARCH_DATABASE}`;
  return url.toString();
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

export async function dropSearchDatabase(serverUrl: string): Promise<void> {
  // WITH (FORCE) ends the connections to this database only: the bench's own.
  await onServer(serverUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${SEARCH_DATABASE} WITH (FORCE)`));
}

/**
 * The search bench's Postgres database with `movements` movements and their history: giro's migrations, then one
 * `INSERT … SELECT` per million movements (and one for their history rows) with the indexes dropped, then the
 * indexes built again from their own definitions, then `VACUUM ANALYZE`. The seeding session skips the
 * history's foreign key triggers (`session_replication_role = replica`): rows consistent by construction.
 */
export async function seedPostgres(
  serverUrl: string,
  movements: number,
  options: { reuse: boolean; log: (message: string) => void },
): Promise<SeededHistory> {
  const url = searchDatabaseUrl(serverUrl);
  if (options.reuse) {
    const existing = await onServer(url, async (client) => {
      const { rows } = await client.query(
        `SELECT (SELECT COUNT(*) FROM giro_movements)::bigint AS count, (SELECT MAX(created_at_ms) FROM giro_movements)::bigint AS newest,
          (SELECT COUNT(*) FROM giro_movement_history)::bigint AS history, pg_database_size(current_database())::bigint AS bytes`,
      );
      return rows[0] as { count: string; newest: string; history: string; bytes: string };
    }).catch(() => undefined);
    if (existing && Number(existing.count) === movements) {
      options.log(`Postgres: reusing ${SEARCH_DATABASE} (${movements} movements), its migrations brought up to date`);
      await migrate(url);
      return {
        engine: 'postgres',
        url,
        movements,
        historyRows: Number(existing.history),
        seedSeconds: 0,
        bytes: Number(existing.bytes),
        newestAtMs: Number(existing.newest),
      };
    }
  }
  const started = performance.now();
  await dropSearchDatabase(serverUrl);
  await onServer(serverUrl, (client) => client.query(`CREATE DATABASE ${SEARCH_DATABASE}`));
  await migrate(url);
  const newestAtMs = newestAtNow();
  return onServer(url, async (client) => {
    await client.query("SET session_replication_role = 'replica'");
    await client.query('SET synchronous_commit = off');
    await client.query("SET maintenance_work_mem = '512MB'");
    await client.query("SET work_mem = '64MB'");
    await client.query('SELECT setseed(0.21)');
    const { rows: indexes } = await client.query<{ name: string; definition: string }>(
      `SELECT c.relname AS name, pg_get_indexdef(i.indexrelid) AS definition
       FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_class t ON t.oid = i.indrelid
       WHERE t.relname IN ('giro_movements', 'giro_movement_history')
         AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conindid = i.indexrelid)`,
    );
    for (const { name } of indexes) await client.query(`DROP INDEX "${name}"`);
    const { destinations, sources } = parties();
    for (const [table, rows] of [
      [PARTY_TABLES.destinations, destinations],
      [PARTY_TABLES.sources, sources],
    ] as const) {
      await client.query(`CREATE TEMP TABLE ${table} (idx bigint PRIMARY KEY, address text, person_id text)`);
      await client.query(`INSERT INTO ${table} SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[])`, [
        rows.map((row) => row.idx),
        rows.map((row) => row.address),
        rows.map((row) => row.personId),
      ]);
      await client.query(`ANALYZE ${table}`);
    }
    const insert = insertMovementsSql('postgres', { total: movements, firstOriginId: FIRST_ORIGIN_ID, newestAtMs });
    for (let low = 0; low < movements; low += CHUNK) {
      const high = Math.min(movements, low + CHUNK);
      await client.query(postgresDrawsSql(low, high));
      await client.query(insert);
      await client.query(`DROP TABLE ${PARTY_TABLES.draws}`);
      await client.query(insertHistorySql('postgres'), [FIRST_ORIGIN_ID + low, FIRST_ORIGIN_ID + high - 1]);
      options.log(`Postgres: ${high} movements inserted (${((performance.now() - started) / 1000).toFixed(0)} s)`);
    }
    for (const { definition } of indexes) await client.query(definition);
    options.log(`Postgres: indexes built (${indexes.length}, ${((performance.now() - started) / 1000).toFixed(0)} s)`);
    await client.query("SET session_replication_role = 'origin'");
    await client.query('VACUUM ANALYZE giro_movements');
    await client.query('VACUUM ANALYZE giro_movement_history');
    const { rows } = await client.query(
      `SELECT (SELECT COUNT(*) FROM giro_movement_history)::bigint AS history, pg_database_size(current_database())::bigint AS bytes`,
    );
    return {
      engine: 'postgres' as const,
      url,
      movements,
      historyRows: Number(rows[0].history),
      seedSeconds: (performance.now() - started) / 1000,
      bytes: Number(rows[0].bytes),
      newestAtMs,
    };
  });
}
