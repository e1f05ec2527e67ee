import type { DataSource } from 'typeorm';
import { describeEachEngine, type TestEngine } from '../testing/test-engines';
import { dueClaimStatement, nextDueStatement, scheduledDueStatement } from './due-claim';
import { engineAdapterFor } from './engine-adapter';

const T0 = Date.UTC(2026, 10, 21, 12, 0, 0);
const MOVEMENTS = 20_000;

// A backlog shaped like production, large enough that each planner prefers what it would prefer there:
// some final movements (next_query_at_ms null), PENDING ones (creations a sweep must send), most of the
// rest waiting for their next query, every non-final one due.
async function seedBacklog(engine: TestEngine, dataSource: DataSource): Promise<void> {
  const columns = `"origin_id", "intent", "fingerprint", "status", "amount", "currency_id", "next_query_at_ms",
    "created_at_ms", "updated_at_ms"`;
  const row = `i, '{}', 'f', CASE WHEN i % 20 < 6 THEN 'COMPLETED' WHEN i % 20 < 9 THEN 'PENDING' ELSE 'IN_PROGRESS'
    END, '1.00', 'ARS', CASE WHEN i % 20 < 6 THEN NULL ELSE t0 + i END, t0, t0`;
  if (engine.kind === 'postgres') {
    await dataSource.query(
      `WITH p(t0) AS (SELECT $1::bigint)
       INSERT INTO "giro_movements" (${columns}) SELECT ${row} FROM p, generate_series(1, $2::bigint) AS i`,
      [T0, MOVEMENTS],
    );
    await dataSource.query('ANALYZE "giro_movements"');
    return;
  }
  await dataSource.query(
    `WITH RECURSIVE p(t0, total) AS (SELECT ?, ?), n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n, p WHERE i < total)
     INSERT INTO "giro_movements" (${columns}) SELECT ${row} FROM n, p`,
    [T0, MOVEMENTS],
  );
  await dataSource.query('ANALYZE');
}

async function planOf(
  engine: TestEngine,
  dataSource: DataSource,
  statement: { sql: string; parameters: unknown[] },
): Promise<string[]> {
  const { sql, parameters } = statement;
  if (engine.kind === 'postgres') {
    const rows: { 'QUERY PLAN': string }[] = await dataSource.query(`EXPLAIN ${sql}`, parameters);
    return rows.map((row) => row['QUERY PLAN']);
  }
  const rows: { detail: string }[] = await dataSource.query(`EXPLAIN QUERY PLAN ${sql}`, parameters);
  return rows.map((row) => row.detail);
}

// A payroll's backlog: every transfer scheduled for one moment, beside a few final ones.
async function seedPayroll(engine: TestEngine, dataSource: DataSource): Promise<void> {
  const columns = `"origin_id", "intent", "fingerprint", "status", "amount", "currency_id", "execute_at_ms",
    "created_at_ms", "updated_at_ms"`;
  const row = `i, '{}', 'f', CASE WHEN i % 20 = 0 THEN 'COMPLETED' ELSE 'SCHEDULED' END, '1.00', 'ARS',
    CASE WHEN i % 20 = 0 THEN NULL ELSE t0 END, t0, t0`;
  const numbered = engine.kind === 'postgres' ? 'generate_series(1, $2::bigint) AS i, p' : 'n, p';
  const prefix =
    engine.kind === 'postgres'
      ? 'WITH p(t0) AS (SELECT $1::bigint)'
      : 'WITH RECURSIVE p(t0, total) AS (SELECT ?, ?), n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n, p WHERE i < total)';
  await dataSource.query(`${prefix} INSERT INTO "giro_movements" (${columns}) SELECT ${row} FROM ${numbered}`, [
    T0,
    MOVEMENTS,
  ]);
  await dataSource.query(engine.kind === 'postgres' ? 'ANALYZE "giro_movements"' : 'ANALYZE');
}

describeEachEngine('the claim of due movements', (engine) => {
  it('reads the scheduled transfers due in their index order, all at one moment: no full scan, no sort', async () => {
    const database = await engine.createDatabase();
    const dataSource = await database.connectMigrated();
    await seedPayroll(engine, dataSource);
    const plan = (await planOf(engine, dataSource, scheduledDueStatement(engineAdapterFor(dataSource), T0, 100))).join(
      '\n',
    );
    if (engine.kind === 'postgres') {
      expect(plan).toMatch(/Index Scan using "IDX_giro_movements_scheduled"/);
      expect(plan).not.toMatch(/Seq Scan on giro_movements|Sort/);
    } else {
      expect(plan).toMatch(/^SEARCH m USING INDEX IDX_giro_movements_scheduled \(/m);
      expect(plan).not.toMatch(/^SCAN|TEMP B-TREE/m);
    }
  });

  it.each(['pending', 'others'] as const)('reads the %s step in index order: no full scan, no sort', async (step) => {
    const database = await engine.createDatabase();
    const dataSource = await database.connectMigrated();
    await seedBacklog(engine, dataSource);
    const times = { dueByMs: T0 + MOVEMENTS, nowMs: T0 + MOVEMENTS };
    const plan = (
      await planOf(engine, dataSource, dueClaimStatement(engineAdapterFor(dataSource), step, times, 100))
    ).join('\n');
    const index = step === 'pending' ? 'IDX_giro_movements_pending_due' : 'IDX_giro_movements_next_query_at';
    if (engine.kind === 'postgres') {
      expect(plan).toMatch(new RegExp(`Index Scan using "${index}"`));
      // The silent replicas' owners (a few rows) may be read whole, once per statement: giro_movements never.
      expect(plan).not.toMatch(/Seq Scan on giro_movements|Sort/);
      expect(plan).toMatch(/LockRows/);
    } else {
      expect(plan).toMatch(new RegExp(`^SEARCH m USING INDEX ${index} \\(`, 'm'));
      expect(plan).not.toMatch(/^SCAN|TEMP B-TREE/m);
    }
  });

  it('finds the next due time on the next_query_at index: no full scan, no sort', async () => {
    const database = await engine.createDatabase();
    const dataSource = await database.connectMigrated();
    await seedBacklog(engine, dataSource);
    const plan = (await planOf(engine, dataSource, nextDueStatement(engineAdapterFor(dataSource), T0))).join('\n');
    if (engine.kind === 'postgres') {
      expect(plan).toMatch(/Index Scan using "IDX_giro_movements_next_query_at"/);
      // The silent replicas' owners (a few rows) may be read whole, once per statement: giro_movements never.
      expect(plan).not.toMatch(/Seq Scan on giro_movements|Sort/);
    } else {
      expect(plan).toMatch(/^SEARCH m USING INDEX IDX_giro_movements_next_query_at \(/m);
      expect(plan).not.toMatch(/^SCAN|TEMP B-TREE/m);
    }
  });
});
