import { hash } from 'node:crypto';
import { type DataSource, type EntityManager, QueryFailedError } from 'typeorm';
import { queryWithCount } from './query-with-count';

/** The part of a pg connection (what TypeORM's query runner holds) that runs a named statement. */
interface PgConnection {
  query(config: { name: string; text: string; values: unknown[] }): Promise<{ rows: Record<string, unknown>[] }>;
}

// One name per text, the same in every process: a text is hashed once.
const names = new Map<string, string>();

function nameOf(sql: string): string {
  let name = names.get(sql);
  if (name === undefined) {
    name = `giro_${hash('sha256', sql, 'hex').slice(0, 24)}`;
    names.set(sql, name);
  }
  return name;
}

/**
 * Postgres refusing a named statement it does not hold (26000) or holds already (42P05): the connection the
 * client prepared it on is not the one it reached, as behind a pooler in transaction mode that does not keep
 * prepared statements (PgBouncer before 1.21). Both are refused before the statement runs.
 */
function isPreparedStatementLost(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '26000' || code === '42P05';
}

/** Data sources whose connections lost a prepared statement: their statements run unnamed from then on. */
const unnamedOnly = new WeakSet<DataSource>();

/**
 * Runs a fixed Postgres statement (placeholders `$1…`) in the manager's transaction, or alone on its runner, as a
 * named prepared statement, straight on the pg connection (TypeORM has no way to name one): each connection of the
 * pool parses and plans it once, not at every call. For the store's hottest statements: parsing and planning them
 * took about half of their backends' CPU on the create path. Logged, and failing, as TypeORM's own statements.
 * Where prepared statements are lost (see isPreparedStatementLost), the data source goes on with unnamed ones:
 * the statement that met it is run again unnamed when it ran alone, and fails like any other inside a transaction.
 */
export async function queryPrepared(
  manager: EntityManager,
  sql: string,
  values: unknown[],
): Promise<Record<string, unknown>[]> {
  const runner = manager.queryRunner;
  if (!runner) throw new Error('queryPrepared runs on a query runner');
  const dataSource = manager.connection;
  const unnamed = async () => (await queryWithCount(manager, sql, values)).records ?? [];
  if (unnamedOnly.has(dataSource)) return unnamed();
  const connection = (await runner.connect()) as PgConnection;
  dataSource.logger.logQuery(sql, values, runner);
  try {
    return (await connection.query({ name: nameOf(sql), text: sql, values })).rows;
  } catch (error) {
    dataSource.logger.logQueryError(error as Error, sql, values, runner);
    if (isPreparedStatementLost(error)) {
      unnamedOnly.add(dataSource);
      if (!runner.isTransactionActive) return unnamed();
    }
    throw new QueryFailedError(sql, values, error as Error);
  }
}
