import type { EntityManager, QueryResult } from 'typeorm';

/** Runs one statement in the manager's transaction, returning its rows (RETURNING) and how many it changed. */
export function queryWithCount(manager: EntityManager, sql: string, parameters: unknown[]): Promise<QueryResult> {
  // Inside a transaction the manager is bound to its query runner.
  if (!manager.queryRunner) throw new Error('queryWithCount runs inside a transaction');
  return manager.queryRunner.query(sql, parameters, true);
}
