import type { DataSource } from 'typeorm';

/** The two databases giro supports: SQLite through better-sqlite3, and Postgres through pg. */
export type DatabaseEngine = 'sqlite' | 'postgres';

export function engineOf(dataSource: Pick<DataSource, 'options'>): DatabaseEngine {
  const type = dataSource.options.type;
  if (type === 'better-sqlite3') return 'sqlite';
  if (type === 'postgres') return 'postgres';
  throw new Error(`giro persistence supports the TypeORM types "better-sqlite3" and "postgres", got "${type}"`);
}
