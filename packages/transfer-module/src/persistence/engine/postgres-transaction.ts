import type { DataSource, EntityManager } from 'typeorm';
import { QueryRunnerAlreadyReleasedError, QueryRunnerProviderAlreadyReleasedError } from 'typeorm';

/** What giro needs of the pg client behind a query runner: its connection errors. */
interface PgClientEvents {
  on(event: 'error', listener: (error: Error) => void): unknown;
  removeListener(event: 'error', listener: (error: Error) => void): unknown;
}

/**
 * Runs `work` in one Postgres transaction, as `dataSource.transaction` does, but reports a connection lost under
 * the transaction by its own error. When Postgres ends a connection between two statements (restarted, cut,
 * `pg_terminate_backend`), TypeORM hears it as an `error` event, marks the query runner released, and the
 * transaction's next statement fails with QueryRunnerAlreadyReleasedError — which reads like a bug in giro and
 * was answered 500 by the admin API. The connection's error (SQLSTATE 57P01, "Connection terminated…") is what
 * happened: callers recognise it as the database being unavailable (503, a sweep that waits). Nothing was
 * committed either way.
 */
export async function postgresTransaction<T>(
  dataSource: DataSource,
  work: (manager: EntityManager) => Promise<T>,
): Promise<T> {
  const runner = dataSource.createQueryRunner();
  try {
    const client = (await runner.connect()) as PgClientEvents;
    let lost: Error | undefined;
    const onError = (error: Error) => {
      lost ??= error;
    };
    client.on('error', onError);
    try {
      return await runner.manager.transaction(work);
    } catch (error) {
      const released =
        error instanceof QueryRunnerAlreadyReleasedError || error instanceof QueryRunnerProviderAlreadyReleasedError;
      throw lost !== undefined && released ? lost : error;
    } finally {
      client.removeListener('error', onError);
    }
  } finally {
    await runner.release();
  }
}
