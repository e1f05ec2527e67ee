import { type DataSource, MigrationExecutor } from 'typeorm';
import { engineAdapterFor } from './engine/engine-adapter';
import { TRANSFER_MIGRATIONS } from './migrations';

/** Key of the lock held while migrating (EngineAdapter.exclusively; on Postgres an advisory lock): "giro" in ASCII. */
export const MIGRATION_LOCK_KEY = 0x6769726f;

/**
 * Runs the data source's pending migrations (giro's and, when they share the data source, the host's) and
 * returns the names of those it ran. On Postgres it holds an advisory lock meanwhile, so replicas that start
 * together migrate one after the other; the later ones find nothing left to do.
 */
export async function runTransferMigrations(dataSource: DataSource): Promise<string[]> {
  assertTransferMigrationsRegistered(dataSource);
  return engineAdapterFor(dataSource).exclusively(
    async () => names(await dataSource.runMigrations()),
    MIGRATION_LOCK_KEY,
  );
}

/** The names of giro's migrations that have not run on this data source yet (it only reads). */
export async function pendingTransferMigrations(dataSource: DataSource): Promise<string[]> {
  const read = async () => {
    const executed = new Set((await new MigrationExecutor(dataSource).getExecutedMigrations()).map((m) => m.name));
    return TRANSFER_MIGRATIONS.map((migration) => migration.name).filter((name) => !executed.has(name));
  };
  return engineAdapterFor(dataSource).exclusively(read);
}

function assertTransferMigrationsRegistered(dataSource: DataSource): void {
  const registered = new Set(dataSource.migrations.map((migration) => migration.name ?? migration.constructor.name));
  const missing = TRANSFER_MIGRATIONS.map((migration) => migration.name).filter((name) => !registered.has(name));
  if (missing.length > 0) {
    throw new Error(
      `the data source does not list giro's migrations (missing ${missing.join(', ')}): add TRANSFER_MIGRATIONS to its "migrations" option`,
    );
  }
}

const names = (migrations: { name: string }[]) => migrations.map((migration) => migration.name);
