import { Logger } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { type ResolvedTransferOptions, TransferModuleOptionsError } from '../options';
import {
  dataSourceOptionsFromUrl,
  type EngineAdapter,
  engineAdapterFor,
  initializeWhenReachable,
  pendingTransferMigrations,
  runTransferMigrations,
  TRANSFER_ENTITIES,
} from '../persistence';

/** The host's TypeORM data source as injected (absent when the host has none by that name). */
export interface HostDataSource {
  dataSource: DataSource | undefined;
  /** `dataSourceName`, when one was given. */
  name: string | undefined;
}

export interface TransferDataSource {
  dataSource: DataSource;
  /** Opened by the module from `databaseUrl` (and closed by it at shutdown); false for the host's. */
  owned: boolean;
}

/** Injection token of the TransferDataSource. */
export const TRANSFER_DATA_SOURCE = Symbol('giro:TransferDataSource');

/**
 * The database giro works in: its own from `databaseUrl`, or the host's TypeORM data source. Either way it
 * must hold giro's entities, and giro's migrations must have run (or run now, with `runMigrations`).
 */
export async function openTransferDataSource(
  options: ResolvedTransferOptions,
  host: HostDataSource,
): Promise<TransferDataSource> {
  if (options.databaseUrl !== undefined) {
    if (host.name !== undefined) {
      throw new TransferModuleOptionsError('databaseUrl and dataSourceName exclude each other: choose one database');
    }
    const logger = new Logger('giro');
    const dataSource = await initializeWhenReachable(
      dataSourceOptionsFromUrl(options.databaseUrl, { poolSize: options.databasePoolSize }),
      {
        timeoutMs: options.databaseStartTimeoutMs,
        notify: (message) => logger.warn(message),
      },
    );
    try {
      await prepare(dataSource, options);
    } catch (error) {
      await dataSource.destroy();
      throw error;
    }
    return { dataSource, owned: true };
  }
  const { dataSource, name } = host;
  if (dataSource === undefined) {
    throw new TransferModuleOptionsError(
      name === undefined
        ? 'databaseUrl is missing and the application has no TypeORM data source: set databaseUrl, or register one (TypeOrmModule.forRoot) listing TRANSFER_ENTITIES and TRANSFER_MIGRATIONS'
        : `dataSourceName "${name}" names no TypeORM data source of the application (TypeOrmModule.forRoot({ name: "${name}", … }))`,
    );
  }
  if (!dataSource.isInitialized)
    throw new TransferModuleOptionsError('dataSourceName: the data source is not initialized');
  await prepare(dataSource, options);
  return { dataSource, owned: false };
}

async function prepare(dataSource: DataSource, options: ResolvedTransferOptions): Promise<void> {
  const which = options.databaseUrl === undefined ? 'the application’s data source' : 'databaseUrl';
  let engine: EngineAdapter;
  try {
    engine = engineAdapterFor(dataSource);
  } catch (error) {
    throw new TransferModuleOptionsError(`${which}: ${(error as Error).message}`);
  }
  engine.keepConnectionErrorsHandled();
  const missing = TRANSFER_ENTITIES.filter((entity) => !dataSource.hasMetadata(entity)).map((entity) => entity.name);
  if (missing.length > 0) {
    throw new TransferModuleOptionsError(
      `${which}: the data source lacks giro's entities (${missing.join(', ')}): add TRANSFER_ENTITIES to its "entities"`,
    );
  }
  if (options.runMigrations) {
    await runTransferMigrations(dataSource);
    return;
  }
  const pending = await pendingTransferMigrations(dataSource);
  if (pending.length > 0) {
    throw new TransferModuleOptionsError(
      `runMigrations: giro's migrations have not run on ${which} (${pending.join(', ')}): set runMigrations: true, or run runTransferMigrations(dataSource) before starting`,
    );
  }
}
