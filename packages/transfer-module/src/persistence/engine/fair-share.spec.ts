import type { DataSource } from 'typeorm';
import { describeEachEngine, type TestEngine } from '../testing/test-engines';
import { engineAdapterFor } from './engine-adapter';
import { accountsStatement, PENDING_QUEUE, SCHEDULED_QUEUE } from './fair-share';

const T0 = Date.UTC(2026, 10, 21, 12, 0, 0);
const MOVEMENTS = 20_000;
const ACCOUNTS = 50;

// Creations of 50 accounts, most of one of them, and as many scheduled transfers: each queue large enough that a
// planner prefers what it would prefer in production.
async function seedQueues(engine: TestEngine, dataSource: DataSource): Promise<void> {
  const columns = `"origin_id", "intent", "fingerprint", "status", "amount", "currency_id", "from_address",
    "next_query_at_ms", "execute_at_ms", "created_at_ms", "updated_at_ms"`;
  const row = `i, '{}', 'f', CASE WHEN i % 2 = 0 THEN 'PENDING' ELSE 'SCHEDULED' END, '1.00', 'ARS',
    CASE WHEN i % 4 < 2 THEN '0000003110000000000001' ELSE '00000031100000000001' || (i % ${ACCOUNTS} + 10) END,
    CASE WHEN i % 2 = 0 THEN t0 + i END, CASE WHEN i % 2 = 1 THEN t0 + i END, t0, t0`;
  if (engine.kind === 'postgres') {
    await dataSource.query(
      `WITH p(t0) AS (SELECT $1::bigint)
       INSERT INTO "giro_movements" (${columns}) SELECT ${row} FROM p, generate_series(1, $2::bigint) AS i`,
      [T0, MOVEMENTS],
    );
  } else {
    await dataSource.query(
      `WITH RECURSIVE p(t0, total) AS (SELECT ?, ?), n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n, p WHERE i < total)
       INSERT INTO "giro_movements" (${columns}) SELECT ${row} FROM n, p`,
      [T0, MOVEMENTS],
    );
  }
  await dataSource.query(engine.kind === 'postgres' ? 'ANALYZE "giro_movements"' : 'ANALYZE');
}

async function planOf(engine: TestEngine, dataSource: DataSource, sql: string, parameters: unknown[]) {
  if (engine.kind === 'postgres') {
    const rows: { 'QUERY PLAN': string }[] = await dataSource.query(`EXPLAIN ${sql}`, parameters);
    return rows.map((row) => row['QUERY PLAN']).join('\n');
  }
  const rows: { detail: string }[] = await dataSource.query(`EXPLAIN QUERY PLAN ${sql}`, parameters);
  return rows.map((row) => row.detail).join('\n');
}

describeEachEngine('the fair share: the walk of the accounts', (engine) => {
  it.each([
    ['creations', PENDING_QUEUE, 'IDX_giro_movements_pending_account'],
    ['scheduled transfers', SCHEDULED_QUEUE, 'IDX_giro_movements_scheduled_account'],
  ])('reads the %s queue on its account index: no full scan, no sort', async (_, queue, index) => {
    const dataSource = await (await engine.createDatabase()).connectMigrated();
    await seedQueues(engine, dataSource);
    const { sql, parameters } = accountsStatement(engineAdapterFor(dataSource), queue, '', 100, T0 + MOVEMENTS);
    const plan = await planOf(engine, dataSource, sql, parameters);
    if (engine.kind === 'postgres') {
      expect(plan).toMatch(new RegExp(`Index (Only )?Scan using "${index}"`));
      expect(plan).not.toMatch(/Seq Scan on giro_movements|Sort/);
    } else {
      expect(plan).toMatch(new RegExp(`USING (COVERING )?INDEX ${index}`));
      expect(plan).not.toMatch(/^SCAN m|TEMP B-TREE/m);
    }
    const accounts: { address: string }[] = await dataSource.query(sql, parameters);
    // Half the accounts' rows are in each queue (even and odd originIds), and the big account's in both.
    expect(accounts).toHaveLength(ACCOUNTS / 2 + 1);
  });
});
