import { isDatabaseUnavailable } from './database-unavailable';
import { describeEachEngine } from './testing/test-engines';

// Which errors mean "the database is out for now" (503, wait) rather than a bug: the driver's own errors, as
// TypeORM wraps them, and real ones from a closed pool and a locked SQLite file.

describe('isDatabaseUnavailable', () => {
  it.each([
    [{ code: 'ECONNREFUSED' }],
    [{ driverError: { code: '57P01', message: 'terminating connection due to administrator command' } }],
    [{ driverError: { code: '08006' } }],
    [{ code: '53300' }],
    [{ driverError: { code: 'SQLITE_BUSY' } }],
    [{ code: 'SQLITE_FULL' }],
    [{ code: 'SQLITE_IOERR_WRITE' }],
    [new Error('Connection terminated unexpectedly')],
    [{ message: 'x', cause: { code: 'ECONNRESET' } }],
  ])('says yes to %j', (error) => {
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it.each([
    [{ driverError: { code: '23505' } }], // unique violation: a refused statement
    [{ driverError: { code: '42P01' } }], // undefined table: a bug
    [{ code: 'SQLITE_CONSTRAINT_PRIMARYKEY' }],
    [new TypeError('x is undefined')],
    [null],
    ['ECONNREFUSED'],
  ])('says no to %j', (error) => {
    expect(isDatabaseUnavailable(error)).toBe(false);
  });
});

describeEachEngine('isDatabaseUnavailable on a real driver', (engine) => {
  it('recognises the error of a query on a database that went away, or is locked by another process', async () => {
    const dataSource = await (await engine.createDatabase()).connectMigrated({ sqliteBusyTimeoutMs: 100 });
    let error: unknown;
    if (engine.kind === 'postgres') {
      // The server ends this connection, as a restart would.
      error = await dataSource
        .query('SELECT pg_terminate_backend(pg_backend_pid())')
        .catch((caught: unknown) => caught);
    } else {
      const { default: Database } = await import('better-sqlite3');
      const locker = new Database(String(dataSource.options.database));
      locker.exec('BEGIN EXCLUSIVE');
      try {
        error = await dataSource
          .query('INSERT INTO "giro_origin_id_counter" ("name", "next_value") VALUES (?, ?)', ['x', 1])
          .catch((caught: unknown) => caught);
      } finally {
        locker.exec('ROLLBACK');
        locker.close();
      }
    }
    expect(error).toBeInstanceOf(Error);
    expect(isDatabaseUnavailable(error)).toBe(true);
  });
});
