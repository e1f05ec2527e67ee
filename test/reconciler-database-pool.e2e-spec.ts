import { DataSource } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';
import { describeOnPostgres } from './support/engines';
import { startTestReconciler, type TestReconciler } from './support/reconciler-harness';

// DATABASE_POOL_SIZE reaches the reconciler's data source: its pool opens that many connections and no more.

describeOnPostgres("the reconciler's pool of DATABASE_POOL_SIZE connections", (engine) => {
  let reconciler: TestReconciler | undefined;
  afterEach(async () => {
    await reconciler?.close();
    reconciler = undefined;
  });

  it('holds as many connections as it is given, and a further transaction waits for one of them', async () => {
    reconciler = await startTestReconciler({ databaseUrl: await engine.createDatabaseUrl(), databasePoolSize: 3 });
    // The default data source's token is its class (TypeOrmModule's getDataSourceToken()).
    const dataSource = reconciler.app.get(DataSource);
    const pool = (dataSource.driver as PostgresDriver).master as { totalCount: number; waitingCount: number };
    const held = Array.from({ length: 3 }, () => dataSource.createQueryRunner());
    await Promise.all(held.map((runner) => runner.connect()));
    expect(pool.totalCount).toBe(3);
    const fourth = dataSource.createQueryRunner();
    const connected = fourth.connect();
    const deadline = Date.now() + 10_000;
    while (pool.waitingCount !== 1) {
      if (Date.now() > deadline) throw new Error('the fourth connection did not wait for the pool');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    await held[0].release();
    await connected;
    expect(pool.totalCount).toBe(3);
    await Promise.all([fourth, ...held.slice(1)].map((runner) => runner.release()));
  });
});
