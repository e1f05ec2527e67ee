import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestDatabase, describeWithPostgres, type TestDatabase } from './postgres';

// End-to-end suites run on a real SQLite file and on a real Postgres database, each test with a database of
// its own. The databases are removed after the whole suite, so a test's own afterEach (closing the
// application that uses the database) always runs first.

export interface E2eEngine {
  kind: 'sqlite' | 'postgres';
  /** The URL of a new, empty database (giro's `databaseUrl`). */
  createDatabaseUrl(): Promise<string>;
}

export function describeOnEachEngine(title: string, suite: (engine: E2eEngine) => void): void {
  describe(`${title} (SQLite)`, () => suite(sqliteEngine()));
  describeWithPostgres(`${title} (Postgres)`, () => suite(postgresEngine()));
}

export function describeOnPostgres(title: string, suite: (engine: E2eEngine) => void): void {
  describeWithPostgres(`${title} (Postgres)`, () => suite(postgresEngine()));
}

function sqliteEngine(): E2eEngine {
  let dir: string | undefined;
  let count = 0;
  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });
  return {
    kind: 'sqlite',
    async createDatabaseUrl() {
      dir ??= mkdtempSync(join(tmpdir(), 'giro-e2e-'));
      count += 1;
      return `sqlite:${join(dir, `giro-${count}.sqlite`)}`;
    },
  };
}

function postgresEngine(): E2eEngine {
  const databases: TestDatabase[] = [];
  afterAll(async () => {
    for (const database of databases.splice(0)) await database.drop();
  });
  return {
    kind: 'postgres',
    async createDatabaseUrl() {
      const database = await createTestDatabase();
      databases.push(database);
      return database.url;
    },
  };
}
