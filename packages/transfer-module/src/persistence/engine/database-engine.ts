import type { DataSource } from 'typeorm';

/** The two databases giro supports: SQLite through better-sqlite3, and Postgres through pg. */
export type DatabaseEngine = 'sqlite' | 'postgres';

/**
 * Which engine a data source runs on. For what keeps SQL of its own per engine (the migrations, the search) and
 * for engineAdapterFor; a store asks its EngineAdapter instead, never which engine it has.
 */
export function engineOf(dataSource: Pick<DataSource, 'options'>): DatabaseEngine {
  const type = dataSource.options.type;
  if (type === 'better-sqlite3') return 'sqlite';
  if (type === 'postgres') return 'postgres';
  throw new Error(`giro persistence supports the TypeORM types "better-sqlite3" and "postgres", got "${type}"`);
}
