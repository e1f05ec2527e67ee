import type { DataSourceOptions, LoggerOptions } from 'typeorm';
import { TRANSFER_ENTITIES } from '../entities';
import { TRANSFER_MIGRATIONS } from '../migrations';

export const DEFAULT_DATABASE_URL = 'sqlite:./data/giro.sqlite';

/** The environment variable the URL usually comes from; named in errors. */
const URL_VARIABLE = 'DATABASE_URL';

export const DEFAULT_SQLITE_BUSY_TIMEOUT_MS = 5000;

/** Postgres: connections in a data source's pool unless told otherwise (pg's own default). */
export const DEFAULT_DATABASE_POOL_SIZE = 10;

export interface TransferDataSourceOverrides {
  /** A named data source (TypeORM and @nestjs/typeorm). */
  name?: string;
  logging?: LoggerOptions;
  /** SQLite: how long a writer waits for another process's write lock before failing (default 5000). */
  sqliteBusyTimeoutMs?: number;
  /** Postgres: connections in the pool (DEFAULT_DATABASE_POOL_SIZE when absent); SQLite has one connection. */
  poolSize?: number;
}

/** A better-sqlite3 connection, as far as the pragmas need it. */
interface SqlitePragmas {
  pragma(source: string): unknown;
}

/**
 * TypeORM options for giro's database: `sqlite:<file path>` (relative to the working directory; its folder is
 * created when the data source connects) or `postgres://…` / `postgresql://…`. The entities and migrations
 * are included; the schema is never synchronized: run the migrations (runTransferMigrations).
 */
export function dataSourceOptionsFromUrl(
  url: string = DEFAULT_DATABASE_URL,
  overrides: TransferDataSourceOverrides = {},
): DataSourceOptions {
  const common = {
    name: overrides.name,
    logging: overrides.logging ?? false,
    entities: TRANSFER_ENTITIES,
    migrations: TRANSFER_MIGRATIONS,
    synchronize: false,
    migrationsRun: false,
  };
  if (url.startsWith('postgres://') || url.startsWith('postgresql://')) {
    return { ...common, type: 'postgres', url, poolSize: overrides.poolSize ?? DEFAULT_DATABASE_POOL_SIZE };
  }
  if (url.startsWith('sqlite:')) {
    return {
      ...common,
      type: 'better-sqlite3',
      database: sqlitePath(url),
      timeout: overrides.sqliteBusyTimeoutMs ?? DEFAULT_SQLITE_BUSY_TIMEOUT_MS,
      prepareDatabase: applySqlitePragmas,
    };
  }
  // Only the scheme is shown: the rest of a URL may hold a password.
  const scheme = /^[a-z][a-z0-9+.-]*:/i.exec(url)?.[0];
  throw new Error(
    `${URL_VARIABLE} must be sqlite:<file path> or postgres://…/postgresql://…, got ${scheme ? `scheme "${scheme}"` : 'no scheme'}`,
  );
}

/**
 * The file a database URL names (`sqlite:./data/giro.sqlite` → `./data/giro.sqlite`), or undefined when the
 * database is on a server or in memory: for what belongs beside the database (sandbox mode's bank ledger).
 */
export function databaseFileOf(url: string): string | undefined {
  if (!url.startsWith('sqlite:')) return undefined;
  const path = sqlitePath(url);
  return path === ':memory:' ? undefined : path;
}

function sqlitePath(url: string): string {
  const path = url.slice('sqlite:'.length);
  if (path === '') throw new Error(`${URL_VARIABLE} sqlite: needs a file path, e.g. ${DEFAULT_DATABASE_URL}`);
  if (path.startsWith('//')) {
    throw new Error(
      `${URL_VARIABLE} takes sqlite:<file path> (sqlite:./data/giro.sqlite or sqlite:/var/lib/giro.sqlite), not sqlite://`,
    );
  }
  return path;
}

// WAL lets readers work while one writer commits. synchronous=FULL makes every commit durable (fsync of the
// WAL) before it returns: the intent must be on disk before the first byte goes to the bank. The busy
// timeout comes from the driver's `timeout` option; foreign keys are off by default in SQLite. secure_delete zeroes
// what a row rewritten or deleted leaves in its page (a webhook secret sealed at start leaves no clear copy), FAST
// only where that costs no extra I/O.
function applySqlitePragmas(db: SqlitePragmas): void {
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('foreign_keys = ON');
  db.pragma('secure_delete = FAST');
}
