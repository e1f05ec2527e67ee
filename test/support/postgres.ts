import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { POSTGRES_AVAILABLE_ENV, TEST_POSTGRES_URL } from './postgres-url';

export const postgresAvailable = () => process.env[POSTGRES_AVAILABLE_ENV] === '1';

/**
 * `describe` for suites that need Postgres: skipped (with the reason printed
 * once by the global setup) when the server is absent and REQUIRE_POSTGRES is
 * not set; the global setup fails the run instead when it is.
 */
export const describeWithPostgres: jest.Describe = postgresAvailable() ? describe : describe.skip;

export interface TestDatabase {
  url: string;
  name: string;
  drop(): Promise<void>;
}

/** A fresh database of its own, so parallel test files never share rows. */
export async function createTestDatabase(prefix = 'giro_test'): Promise<TestDatabase> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  const admin = new Client({ connectionString: TEST_POSTGRES_URL });
  await admin.connect();
  try {
    // Identifiers cannot be bound parameters; `name` is built above from hex only.
    await admin.query(`create database "${name}"`);
  } finally {
    await admin.end();
  }
  const url = new URL(TEST_POSTGRES_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    async drop() {
      const client = new Client({ connectionString: TEST_POSTGRES_URL });
      await client.connect();
      try {
        await client.query(`drop database if exists "${name}" with (force)`);
      } finally {
        await client.end();
      }
    },
  };
}
