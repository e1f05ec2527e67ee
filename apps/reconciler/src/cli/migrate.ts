import { existsSync } from 'node:fs';
import { dataSourceOptionsFromUrl, runTransferMigrations } from '@giro/transfer-module';
import { DataSource } from 'typeorm';
import { databaseUrlFromEnv } from '../config/reconciler-config';

/**
 * `giro-reconciler migrate`: applies giro's pending migrations to DATABASE_URL and exits, printing the names
 * of those it ran as one JSON line (`{"event":"migrations-finished","ran":[…]}`). For deployments that migrate
 * before starting replicas; the reconciler also migrates at start (on Postgres under an advisory lock).
 */
export async function migrate(): Promise<void> {
  if (existsSync('.env')) process.loadEnvFile('.env');
  const dataSource = new DataSource(dataSourceOptionsFromUrl(databaseUrlFromEnv(process.env)));
  await dataSource.initialize();
  try {
    const ran = await runTransferMigrations(dataSource);
    console.log(JSON.stringify({ event: 'migrations-finished', ran }));
  } finally {
    await dataSource.destroy();
  }
}
