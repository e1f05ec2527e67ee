import type { DataSource, EntityManager } from 'typeorm';
import { engineOf } from '../engine/database-engine';
import type { MovementEntity } from '../entities';
import type { CheckedSearch } from './checked-search';
import { PostgresMovementSearch } from './postgres-movement-search';
import { SqliteMovementSearch } from './sqlite-movement-search';

/**
 * The search of movements (`GET /admin/transfers`), one implementation per engine, each reading only that engine's
 * own indexes: B-trees, and for the description's text FTS5 on SQLite, pg_trgm on Postgres.
 */
export interface MovementSearchPort {
  /** The page's rows in the search's order: its limit's worth, and one more when there is a next page. */
  rows(manager: EntityManager, search: CheckedSearch): Promise<MovementEntity[]>;
}

/** The search of a data source's engine, chosen once when the store is made. */
export function movementSearchFor(dataSource: Pick<DataSource, 'options'>): MovementSearchPort {
  return engineOf(dataSource) === 'postgres' ? new PostgresMovementSearch() : new SqliteMovementSearch();
}
