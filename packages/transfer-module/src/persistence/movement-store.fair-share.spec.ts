import type { DataSource } from 'typeorm';
import { completeCbuCvu } from '../domain';
import { engineAdapterFor } from './engine/engine-adapter';
import { MovementEntity } from './entities';
import { storeFixture, T0 } from './testing/store-fixture';
import { describeEachEngine, describeOnPostgres } from './testing/test-engines';

const LEASE_MS = 60_000;
const A = completeCbuCvu('0170001', '0000000000012');
const B = completeCbuCvu('0170001', '0000000000029');
const C = completeCbuCvu('0170001', '0000000000036');

/**
 * `count` PENDING copies of movement `template` from `address`, originIds from `firstId`, due one millisecond
 * apart from `dueFromMs`: one statement, so that a backlog of thousands costs the test no time.
 */
async function pendingCopies(
  dataSource: DataSource,
  template: number,
  rows: { address: string; firstId: number; count: number; dueFromMs: number },
): Promise<void> {
  const columns = dataSource
    .getMetadata(MovementEntity)
    .columns.map((column) => `"${column.databaseName}"`)
    .filter((column) => !['"origin_id"', '"from_address"', '"next_query_at_ms"', '"status"'].includes(column));
  const sql = `WITH RECURSIVE n(i) AS (SELECT CAST(? AS bigint) UNION ALL SELECT i + 1 FROM n WHERE i < ?)
    INSERT INTO "giro_movements" ("origin_id", "from_address", "next_query_at_ms", "status", ${columns.join(', ')})
    SELECT n.i, ?, ? + (n.i - ?), 'PENDING', ${columns.map((column) => `t.${column}`).join(', ')}
    FROM n, "giro_movements" t WHERE t."origin_id" = ?`;
  const last = rows.firstId + rows.count - 1;
  await dataSource.query(engineAdapterFor(dataSource).sql(sql), [
    rows.firstId,
    last,
    rows.address,
    rows.dueFromMs,
    rows.firstId,
    template,
  ]);
}

describeEachEngine('the fair share of the bank', (engine) => {
  async function backlog(accounts: { address: string; count: number; dueFromMs: number }[]) {
    const fixture = await storeFixture(engine);
    await fixture.record(1);
    let firstId = 100;
    const addressOf = new Map<number, string>();
    for (const account of accounts) {
      await pendingCopies(fixture.dataSource, 1, { ...account, firstId });
      for (let id = firstId; id < firstId + account.count; id += 1) addressOf.set(id, account.address);
      firstId += account.count;
    }
    // The template (another account) is not due before tomorrow: the walk meets its account and leaves it.
    await fixture.dataSource.query(
      engineAdapterFor(fixture.dataSource).sql(
        `UPDATE "giro_movements" SET "next_query_at_ms" = ? WHERE "origin_id" = ?`,
      ),
      [T0 + 86_400_000, 1],
    );
    const claim = async (limit: number, accountWeights?: ReadonlyMap<string, number>) => {
      const claimed = await fixture.store.claimDue({ owner: 'sweeper', limit, leaseMs: LEASE_MS, accountWeights });
      return claimed.map((row) => addressOf.get(row.originId));
    };
    return { ...fixture, claim };
  }

  it("claims another account's one transfer in the first batch while one account has 10 000 due before it", async () => {
    const { claim } = await backlog([
      { address: A, count: 10_000, dueFromMs: T0 - 20_000 },
      { address: B, count: 1, dueFromMs: T0 },
    ]);
    const first = await claim(8);
    expect(first).toHaveLength(8);
    expect(first.filter((address) => address === B)).toHaveLength(1);
    // In the order a worker takes them: the other account's one among the first round.
    expect(first.indexOf(B)).toBeLessThan(2);
    expect(first.filter((address) => address === A)).toHaveLength(7);
  });

  it('takes the accounts round by round, each by its weight', async () => {
    const { claim } = await backlog([
      { address: A, count: 100, dueFromMs: T0 - 1000 },
      { address: B, count: 100, dueFromMs: T0 - 1000 },
      { address: C, count: 100, dueFromMs: T0 - 1000 },
    ]);
    const batch = await claim(8, new Map([[A, 2]]));
    const count = (address: string) => batch.filter((claimed) => claimed === address).length;
    expect([count(A), count(B), count(C)]).toEqual([4, 2, 2]);
  });

  it('serves more accounts than a batch holds in turn, from where the previous batch stopped', async () => {
    const accounts = Array.from({ length: 5 }, (_, index) =>
      completeCbuCvu('0170002', String(index).padStart(13, '0')),
    );
    const { claim } = await backlog(accounts.map((address) => ({ address, count: 3, dueFromMs: T0 - 1000 })));
    const served = [...(await claim(2)), ...(await claim(2)), ...(await claim(2))];
    expect(new Set(served)).toEqual(new Set(accounts));
  });

  it('claims by due time alone when one account has everything due', async () => {
    const { store, claim } = await backlog([{ address: A, count: 50, dueFromMs: T0 - 1000 }]);
    expect(await claim(10)).toEqual(Array(10).fill(A));
    const rest = await store.claimDue({ owner: 'sweeper', limit: 100, leaseMs: LEASE_MS });
    expect(rest.map((row) => row.originId)).toEqual(Array.from({ length: 40 }, (_, index) => 110 + index));
  });

  it('claims no creation when told not to (outside the bank hours), and each one once', async () => {
    const { store, claim } = await backlog([
      { address: A, count: 3, dueFromMs: T0 - 1000 },
      { address: B, count: 1, dueFromMs: T0 },
    ]);
    expect(await store.claimDue({ owner: 'other', limit: 10, leaseMs: LEASE_MS, creations: false })).toEqual([]);
    expect((await claim(10)).sort()).toEqual([A, A, A, B].sort());
    expect(await claim(10)).toEqual([]);
  });

  it("releases another account's scheduled transfer in the first claim after its moment, behind no backlog", async () => {
    const { store, dataSource, claim } = await backlog([{ address: A, count: 10_000, dueFromMs: T0 - 20_000 }]);
    // B's one transfer, scheduled: due at its moment, not before.
    const sql = engineAdapterFor(dataSource).sql(
      `UPDATE "giro_movements" SET "status" = 'SCHEDULED', "from_address" = ?, "execute_at_ms" = ?,
        "next_query_at_ms" = NULL, "attempts" = 0 WHERE "origin_id" = ?`,
    );
    await dataSource.query(sql, [B, T0 + 1, 1]);
    expect(await claim(8)).not.toContain(B);
    await dataSource.query(sql, [B, T0, 1]);
    const batch = await store.claimDue({ owner: 'sweeper', limit: 8, leaseMs: LEASE_MS });
    const index = batch.findIndex((record) => record.originId === 1);
    expect(index).toBeGreaterThanOrEqual(0);
    expect(index).toBeLessThan(2);
    // Released by the claim, its first send counted: the worker sends it at once, whoever takes it over looks first.
    expect(batch[index]).toMatchObject({ status: 'PENDING', attempts: 1, released: true, leaseOwner: 'sweeper' });
    expect(batch.filter((record) => record.released)).toHaveLength(1);
    const stored = await store.findByOriginId(1);
    expect(stored).toMatchObject({ status: 'PENDING', attempts: 1, leaseOwner: 'sweeper' });
    expect(stored?.nextQueryAt?.getTime()).toBe(T0);
    expect(stored?.history.at(-1)).toMatchObject({ from: 'SCHEDULED', to: 'PENDING', source: 'release' });
    // Never sent twice: a cancel now finds it released.
    await expect(store.cancelScheduled(1, null)).rejects.toThrow(/SCHEDULED/);
  });

  it('releases no scheduled transfer when told to claim no creation (outside the bank hours)', async () => {
    const { store, dataSource } = await backlog([{ address: A, count: 1, dueFromMs: T0 + 60_000 }]);
    await dataSource.query(
      engineAdapterFor(dataSource).sql(
        `UPDATE "giro_movements" SET "status" = 'SCHEDULED', "execute_at_ms" = ?, "next_query_at_ms" = NULL
          WHERE "origin_id" = ?`,
      ),
      [T0 - 1000, 1],
    );
    expect(await store.claimDue({ owner: 'sweeper', limit: 10, leaseMs: LEASE_MS, creations: false })).toEqual([]);
    expect((await store.findByOriginId(1))?.status).toBe('SCHEDULED');
  });
});

describeOnPostgres('the fair share of the bank across replicas', (engine) => {
  it('never gives two concurrent claimers the same transfer', async () => {
    const fixture = await storeFixture(engine);
    await fixture.record(1);
    await pendingCopies(fixture.dataSource, 1, { address: A, firstId: 100, count: 500, dueFromMs: T0 - 1000 });
    await pendingCopies(fixture.dataSource, 1, { address: B, firstId: 1000, count: 500, dueFromMs: T0 - 1000 });
    const other = await fixture.secondConnection();
    const claims = await Promise.all(
      Array.from({ length: 6 }, (_, index) =>
        (index % 2 === 0 ? fixture.store : other.store).claimDue({
          owner: `sweeper-${index}`,
          limit: 50,
          leaseMs: LEASE_MS,
        }),
      ),
    );
    const ids = claims.flat().map((row) => row.originId);
    expect(ids.length).toBeGreaterThan(50);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
