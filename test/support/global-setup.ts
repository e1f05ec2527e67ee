import { Client } from 'pg';
import { POSTGRES_AVAILABLE_ENV, TEST_POSTGRES_URL } from './postgres-url';

/**
 * Runs once before all test files: probes Postgres so that its suites either
 * run, skip with a clear line (a user machine without Postgres), or fail
 * (REQUIRE_POSTGRES=1, as CI sets it).
 */
export default async function globalSetup(): Promise<void> {
  const client = new Client({ connectionString: TEST_POSTGRES_URL, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('select 1');
    process.env[POSTGRES_AVAILABLE_ENV] = '1';
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    if (process.env.REQUIRE_POSTGRES === '1') {
      throw new Error(`REQUIRE_POSTGRES=1 but Postgres at ${redact(TEST_POSTGRES_URL)} is not reachable: ${reason}`);
    }
    console.warn(
      `\nPostgres at ${redact(TEST_POSTGRES_URL)} is not reachable (${reason}): Postgres suites will skip. Set REQUIRE_POSTGRES=1 to make that an error.\n`,
    );
  } finally {
    await client.end().catch(() => undefined);
  }
}

function redact(url: string): string {
  return url.replace(/\/\/([^:@/]+):[^@/]+@/, '//$1:***@');
}
