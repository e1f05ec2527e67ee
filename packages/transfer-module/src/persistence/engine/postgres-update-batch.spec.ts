import { createTestDatabase, describeWithPostgres, type TestDatabase } from '@test-support/postgres';
import { DataSource } from 'typeorm';
import { ManualClock } from '../../domain';
import { MovementStore } from '../movement-store';
import { runTransferMigrations } from '../run-transfer-migrations';
import { sampleIntent } from '../testing/sample-intent';
import { T0 } from '../testing/store-fixture';
import { dataSourceOptionsFromUrl } from './data-source-options';
import { runPostgresFencedWrite } from './fenced-update';
import { PostgresUpdateBatch } from './postgres-update-batch';

const LEASE = 30_000;

describeWithPostgres('PostgresUpdateBatch (Postgres)', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  let clock: ManualClock;
  let store: MovementStore;

  beforeEach(async () => {
    database = await createTestDatabase();
    dataSource = await new DataSource(dataSourceOptionsFromUrl(database.url)).initialize();
    await runTransferMigrations(dataSource);
    clock = new ManualClock(T0);
    store = new MovementStore(dataSource, clock);
  });

  afterEach(async () => {
    await dataSource.destroy();
    await database.drop();
  });

  /** Movements 1…count recorded and leased to `owner`. */
  async function leased(count: number, owner = 'w') {
    for (let originId = 1; originId <= count; originId += 1) {
      const { intent, fingerprint } = sampleIntent(originId);
      await store.recordIntent(intent, fingerprint, { sendNow: true, owner, leaseMs: LEASE });
    }
  }

  /** The UPDATE statements the data source runs during `work`. */
  async function updatesDuring<T>(work: () => Promise<T>): Promise<{ result: T; updates: string[] }> {
    const log = jest.spyOn(dataSource.logger, 'logQuery');
    try {
      const result = await work();
      const updates = log.mock.calls.map(([sql]) => sql.trim()).filter((sql) => sql.startsWith('UPDATE'));
      return { result, updates };
    } finally {
      log.mockRestore();
    }
  }

  const quietAnswer = (error: string, nextQueryAtMs: number) => ({
    patch: { lastError: error, nextQueryAt: new Date(nextQueryAtMs) },
    countQuery: true,
    releaseLease: true,
  });

  it('writes the quiet answers of one turn with one statement, each fenced on its own lease', async () => {
    await leased(4);
    clock.advance(100);
    const { result, updates } = await updatesDuring(() =>
      Promise.all([
        store.applyUpdate(1, 'w', quietAnswer('a', T0 + 5_001)),
        store.applyUpdate(2, 'w', quietAnswer('b', T0 + 5_002)),
        store.applyUpdate(3, 'someone else', quietAnswer('c', T0 + 5_003)),
        store.applyUpdate(4, 'w', quietAnswer('d', T0 + 5_004)),
      ]),
    );
    expect(updates).toHaveLength(1);
    expect(updates[0]).toMatch(/FROM unnest\(/);
    expect(result.map((outcome) => outcome.applied)).toEqual([true, true, false, true]);
    for (const [index, originId] of [1, 2, 4].entries()) {
      const stored = await store.findByOriginId(originId);
      expect(stored).toMatchObject({
        lastError: 'abd'[index],
        nextQueryAt: new Date(T0 + 5_000 + originId),
        queries: 1,
        leaseOwner: null,
        version: 2, // recorded (leased to send), answered
        updatedAt: new Date(T0 + 100),
      });
      const outcome = result[originId - 1];
      expect(outcome.applied && outcome.movement).toEqual({
        ...stored,
        history: undefined,
        cancellation: undefined,
        resolutions: undefined,
      });
    }
    // The one refused by its fence was not touched.
    expect(await store.findByOriginId(3)).toMatchObject({ lastError: null, queries: 0, leaseOwner: 'w', version: 1 });
  });

  it('runs its statement as a prepared statement of the connection, parsed once for every batch of that shape', async () => {
    await leased(3);
    const { updates } = await updatesDuring(async () => {
      await store.applyUpdate(1, 'w', quietAnswer('a', T0 + 5_000));
      await Promise.all([2, 3].map((originId) => store.applyUpdate(originId, 'w', quietAnswer('b', T0 + 5_000))));
    });
    expect(updates).toHaveLength(2);
    // pg-pool hands out the connection released last: the one both batches ran on, one after the other.
    // (The connection also holds the intents' statement, prepared as they were recorded.)
    const prepared: { name: string; statement: string }[] = await dataSource.query(
      `SELECT name, statement FROM pg_prepared_statements WHERE statement LIKE 'UPDATE%'`,
    );
    expect(prepared).toEqual([{ name: expect.stringMatching(/^giro_[0-9a-f]{24}$/), statement: updates[0] }]);
  });

  it('writes the answers that arrive while a batch is under way together, after it', async () => {
    await leased(4);
    const { result, updates } = await updatesDuring(async () => {
      const first = store.applyUpdate(1, 'w', quietAnswer('a', T0 + 5_000));
      // The next turn: the first statement has been sent and is waiting for the server.
      await new Promise((resolve) => setImmediate(resolve));
      const rest = [2, 3, 4].map((originId) => store.applyUpdate(originId, 'w', quietAnswer('b', T0 + 5_000)));
      return Promise.all([first, ...rest]);
    });
    expect(result.every((outcome) => outcome.applied)).toBe(true);
    expect(updates).toHaveLength(2);
    expect(updates[0]).toMatch(/unnest/);
    // A batch of one and one of three: the same statement text (each connection prepares it once).
    expect(updates[1]).toBe(updates[0]);
  });

  it('applies two answers about one movement in the order they came, never in the same statement', async () => {
    await leased(2);
    const { result, updates } = await updatesDuring(() =>
      Promise.all([
        store.applyUpdate(1, 'w', { ...quietAnswer('first', T0 + 5_000), releaseLease: false }),
        store.applyUpdate(2, 'w', { ...quietAnswer('other', T0 + 5_000), releaseLease: false }),
        store.applyUpdate(1, 'w', { ...quietAnswer('second', T0 + 6_000), releaseLease: false }),
      ]),
    );
    expect(result.every((outcome) => outcome.applied)).toBe(true);
    expect(updates).toHaveLength(2);
    expect(await store.findByOriginId(1)).toMatchObject({
      lastError: 'second',
      nextQueryAt: new Date(T0 + 6_000),
      queries: 2,
      version: 3,
    });
  });

  it('keeps a final movement out of the schedule, as an update alone does', async () => {
    await leased(2);
    await dataSource.query(`UPDATE "giro_movements" SET "status" = 'COMPLETED' WHERE "origin_id" = 2`);
    await Promise.all(
      [1, 2].map((originId) =>
        store.applyUpdate(originId, 'w', { patch: { nextQueryAt: new Date(T0 + 5_000) }, releaseLease: false }),
      ),
    );
    expect((await store.findByOriginId(1))?.nextQueryAt).toEqual(new Date(T0 + 5_000));
    expect((await store.findByOriginId(2))?.nextQueryAt).toBeNull();
  });

  it('fails only the update that breaks a rule of the database, the others of its batch are written', async () => {
    await leased(3);
    const alone = async (write: Parameters<typeof runPostgresFencedWrite>[1]) => {
      const runner = dataSource.createQueryRunner();
      try {
        return (await runPostgresFencedWrite(runner.manager, write))?.movement ?? null;
      } finally {
        await runner.release();
      }
    };
    const batch = new PostgresUpdateBatch(dataSource, alone);
    const write = (originId: number, status: string) =>
      batch.write({
        originId,
        owner: 'w',
        nowMs: clock.now().getTime(),
        values: { status: status as never, updatedAtMs: T0 + 1 },
        countQuery: false,
        uncountSend: false,
        history: [],
        guard: { kind: 'any' },
      });
    const outcomes = await Promise.allSettled([write(1, 'IN_PROGRESS'), write(2, 'NOT_A_STATUS'), write(3, 'CREATED')]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(String((outcomes[1] as PromiseRejectedResult).reason)).toMatch(/CHK_giro_movements_status/);
    expect((await store.findByOriginId(1))?.status).toBe('IN_PROGRESS');
    expect((await store.findByOriginId(2))?.status).toBe('PENDING');
    expect((await store.findByOriginId(3))?.status).toBe('CREATED');
  });
});
