import type { EventEmitter } from 'node:events';
import type { DataSource } from 'typeorm';

// A pg Client emits 'error' when its server connection ends under it (a terminated backend, a restart): TypeORM
// listens while a query runner holds the client and the pool listens while it is idle, but a client the server
// ends again in between those — twice in a row under repeated `pg_terminate_backend` — emits with no listener,
// and Node turns an unhandled 'error' event into a crash of the whole process. The error needs no handling here:
// the query in flight rejects with it (the store's callers see the database unavailable, DatabaseOutageNotice
// says so once) and the pool discards the client.

const guarded = new WeakSet<EventEmitter>();
const ignoreEndedConnection = () => {};

/**
 * Gives every client of a Postgres data source's pool, present and future, an 'error' listener, so that a
 * connection the server ends never crashes the process. Idempotent.
 */
export function keepPostgresClientErrorsHandled(dataSource: DataSource): void {
  const driver = dataSource.driver as unknown as { master?: EventEmitter; slaves?: EventEmitter[] };
  for (const pool of [driver.master, ...(driver.slaves ?? [])]) {
    if (pool === undefined || guarded.has(pool)) continue;
    guarded.add(pool);
    // 'connect' for every new client, 'acquire' for the ones the pool opened before this ran.
    const guard = (client: EventEmitter) => {
      if (guarded.has(client)) return;
      guarded.add(client);
      client.on('error', ignoreEndedConnection);
    };
    pool.on('connect', guard);
    pool.on('acquire', guard);
  }
}
