import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestDatabase, describeWithPostgres, type TestDatabase } from '@test-support/postgres';
import { DataSource } from 'typeorm';
import { dataSourceOptionsFromUrl, type TransferDataSourceOverrides } from '../engine/data-source-options';
import type { DatabaseEngine } from '../engine/database-engine';
import { runTransferMigrations } from '../run-transfer-migrations';

// Test support only (imported by specs): runs one behavioural suite on a real SQLite file and on a real
// Postgres database, each test with a database of its own.

export interface EngineDatabase {
  url: string;
  /** A new, initialized DataSource on this database; destroyed after the test. */
  connect(overrides?: TransferDataSourceOverrides): Promise<DataSource>;
  /** connect(), then runTransferMigrations. */
  connectMigrated(overrides?: TransferDataSourceOverrides): Promise<DataSource>;
}

export interface TestEngine {
  kind: DatabaseEngine;
  createDatabase(): Promise<EngineDatabase>;
}

export function describeEachEngine(title: string, suite: (engine: TestEngine) => void): void {
  describeOnSqlite(title, suite);
  describeOnPostgres(title, suite);
}

/** For what only SQLite has (its pragmas, its file lock). */
export function describeOnSqlite(title: string, suite: (engine: TestEngine) => void): void {
  describe(`${title} (SQLite)`, () => suite(trackedEngine('sqlite')));
}

/** For what only Postgres has (its prepared statements, its row locks). */
export function describeOnPostgres(title: string, suite: (engine: TestEngine) => void): void {
  describeWithPostgres(`${title} (Postgres)`, () => suite(trackedEngine('postgres')));
}

/** An engine whose databases and connections are cleaned up after each test (call inside describe). */
function trackedEngine(kind: DatabaseEngine): TestEngine {
  const dataSources: DataSource[] = [];
  const postgresDatabases: TestDatabase[] = [];
  let sqliteDir: string | undefined;
  let count = 0;

  afterEach(async () => {
    for (const dataSource of dataSources.splice(0)) if (dataSource.isInitialized) await dataSource.destroy();
    for (const database of postgresDatabases.splice(0)) await database.drop();
  });
  afterAll(() => {
    if (sqliteDir) rmSync(sqliteDir, { recursive: true, force: true });
  });

  const databaseAt = (url: string): EngineDatabase => {
    const connect = async (overrides?: TransferDataSourceOverrides) => {
      const dataSource = new DataSource(dataSourceOptionsFromUrl(url, overrides));
      dataSources.push(dataSource);
      return dataSource.initialize();
    };
    return {
      url,
      connect,
      async connectMigrated(overrides) {
        const dataSource = await connect(overrides);
        await runTransferMigrations(dataSource);
        return dataSource;
      },
    };
  };

  return {
    kind,
    async createDatabase() {
      if (kind === 'sqlite') {
        sqliteDir ??= mkdtempSync(join(tmpdir(), 'giro-persistence-'));
        count += 1;
        return databaseAt(`sqlite:${join(sqliteDir, `test-${count}.sqlite`)}`);
      }
      const database = await createTestDatabase();
      postgresDatabases.push(database);
      return databaseAt(database.url);
    },
  };
}
