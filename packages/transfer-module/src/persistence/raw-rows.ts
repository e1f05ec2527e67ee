import type { EntityMetadata } from 'typeorm';
import type { DatabaseEngine } from './database-engine';

// For the statements the store writes itself (fixed text with placeholders, so each is prepared once):
// placeholders in each engine's spelling, and rows read back as TypeORM would build the entities.

/** The statement with its `?` placeholders as the engine wants them (Postgres: `$1, $2, …`). */
export function placeholdersFor(engine: DatabaseEngine, sql: string): string {
  if (engine === 'sqlite') return sql;
  let index = 0;
  // The statements here hold no `?` inside a literal.
  return sql.replace(/\?/g, () => `$${++index}`);
}

/** A raw row (database column names, Postgres bigints as strings) as the entity TypeORM would build. */
export function entityFromRow<T>(metadata: EntityMetadata, row: Record<string, unknown>): T {
  const entity: Record<string, unknown> = {};
  for (const column of metadata.columns) {
    const value = row[column.databaseName];
    const transformer = column.transformer;
    entity[column.propertyName] = transformer && !Array.isArray(transformer) ? transformer.from(value) : value;
  }
  return entity as T;
}
