import { setTimeout as sleep } from 'node:timers/promises';
import type { DataSource, QueryRunner } from 'typeorm';
import { BankCallBudget, BankRateLimitedError } from '../bank';
import { HEARTBEAT_LOCK_KEY, ReplicaRegistry } from '../persistence';
import { storeFixture, T0 } from '../persistence/testing/store-fixture';
import { describeEachEngine, describeOnPostgres } from '../persistence/testing/test-engines';
import { HEARTBEAT_INTERVAL_MS, REPLICA_LIVE_WITHIN_MS, ReplicaHeartbeat } from './replica-heartbeat';
import { silentLogger } from './testing/sender-fixture';

// Replicas on one database share the bank budget through their heartbeats: each takes 1/N of the deployment's
// rate and in-flight cap, a 429's pause reaches every one, and a replica that stops is no longer counted.

describeEachEngine('ReplicaHeartbeat', (engine) => {
  async function replicas(count: number) {
    const fixture = await storeFixture(engine);
    const registry = new ReplicaRegistry(fixture.dataSource, fixture.clock);
    // The budgets read the fixture's clock (their timers never fire: a test reads heldUntil, it does not wait).
    const timers = { now: () => fixture.clock.now().getTime(), setTimeout: () => undefined };
    const made = Array.from({ length: count }, (_, index) => {
      const budget = new BankCallBudget({ maxInFlight: 8, ratePerSecond: 40 }, timers);
      return { budget, heartbeat: new ReplicaHeartbeat(registry, budget, `replica-${index}`, silentLogger) };
    });
    return { fixture, registry, replicas: made };
  }

  it('gives each of four replicas a quarter of the rate and of the in-flight cap', async () => {
    const { replicas: four } = await replicas(4);
    for (const { heartbeat } of four) await heartbeat.beat();
    // The first ones beat before the others existed: their next beat hears all four.
    for (const { heartbeat } of four) await heartbeat.beat();
    for (const { budget } of four) {
      expect(budget.ratePerSecond).toBe(10);
      expect(budget.maxInFlight).toBe(2);
    }
  });

  it('gives a stopped replica’s share back: at once when it leaves, after 5 s of silence when it crashed', async () => {
    const { fixture, replicas: three } = await replicas(3);
    for (let round = 0; round < 2; round++) for (const { heartbeat } of three) await heartbeat.beat();
    // 40 over three: 14 for the first by owner, 13 for each of the others.
    expect(three.map(({ budget }) => budget.ratePerSecond)).toEqual([14, 13, 13]);

    three[1].heartbeat.onApplicationBootstrap(); // a timer of its own, so leaving removes its row
    await three[1].heartbeat.onModuleDestroy();
    await three[0].heartbeat.beat();
    expect(three[0].budget.ratePerSecond).toBe(20);

    // The third one crashed: silent from now on.
    fixture.clock.advance(REPLICA_LIVE_WITHIN_MS - 1);
    await three[0].heartbeat.beat();
    expect(three[0].budget.ratePerSecond).toBe(20);
    fixture.clock.advance(2);
    await three[0].heartbeat.beat();
    expect(three[0].budget.ratePerSecond).toBe(40);
  });

  it('pauses every replica when one gets a 429 with Retry-After', async () => {
    const { fixture, replicas: two } = await replicas(2);
    for (const { heartbeat } of two) await heartbeat.beat();
    const limited = new BankRateLimitedError('rate-limited', {
      operation: 'get-movement',
      httpStatus: 429,
      retryAfterMs: 60_000,
    });
    await expect(two[0].budget.throttle('query', () => Promise.reject(limited))).rejects.toBe(limited);
    const until = two[0].budget.pausedUntil as number;
    expect(until).toBe(fixture.clock.now().getTime() + 60_000);
    expect(two[1].budget.pausedUntil).toBeNull();
    await two[0].heartbeat.beat(); // writes the pause
    await two[1].heartbeat.beat(); // reads it
    expect(two[1].budget.pausedUntil).toBe(until);
  });

  it('holds a joining replica’s calls until its first beat, and then while the others make room for it', async () => {
    const { fixture, replicas: two } = await replicas(2);
    const [first, second] = two;
    try {
      first.heartbeat.onApplicationBootstrap();
      expect(first.budget.heldUntil).toBe(Number.POSITIVE_INFINITY);
      await first.heartbeat.beat();
      // Alone: nobody else's share to wait for.
      expect(first.budget.heldUntil).toBeNull();

      second.heartbeat.onApplicationBootstrap();
      expect(second.budget.heldUntil).toBe(Number.POSITIVE_INFINITY);
      await second.heartbeat.beat();
      // The first hears of it at its next beat (an interval, half a second late at most); the calls it started
      // under its whole share leave the rate's window (1 050 ms) after that.
      const now = fixture.clock.now().getTime();
      expect(second.budget.heldUntil).toBe(now + HEARTBEAT_INTERVAL_MS + 500 + 1_050);
      expect(second.budget.ratePerSecond).toBe(20);
      // Its later beats keep the hold as it was.
      fixture.clock.advance(HEARTBEAT_INTERVAL_MS);
      await second.heartbeat.beat();
      expect(second.budget.heldUntil).toBe(now + HEARTBEAT_INTERVAL_MS + 500 + 1_050);
    } finally {
      await first.heartbeat.onModuleDestroy();
      await second.heartbeat.onModuleDestroy();
    }
  });

  it('keeps the last share when the database does not answer, and never throws', async () => {
    const { fixture, replicas: two } = await replicas(2);
    for (let round = 0; round < 2; round++) for (const { heartbeat } of two) await heartbeat.beat();
    await fixture.dataSource.destroy();
    await expect(two[0].heartbeat.beat()).resolves.toBeUndefined();
    expect(two[0].budget.ratePerSecond).toBe(20);
  });
});

describeOnPostgres('ReplicaRegistry heartbeats', (engine) => {
  it('go one after another: a replica joining while another beats counts it once it has committed', async () => {
    const fixture = await storeFixture(engine);
    const registry = new ReplicaRegistry(fixture.dataSource, fixture.clock);
    const other = await fixture.secondConnection();
    const runner = other.dataSource.createQueryRunner();
    await runner.connect();
    try {
      // Another replica's first beat, under way: its row is written, not yet committed.
      await runner.startTransaction();
      await runner.query('SELECT pg_advisory_xact_lock($1)', [HEARTBEAT_LOCK_KEY]);
      await runner.query(
        `INSERT INTO "giro_replicas" ("owner", "started_at_ms", "heartbeat_at_ms", "beating_since_ms")
          VALUES ('replica-a', $1, $1, $1)`,
        [fixture.clock.now().getTime()],
      );
      const census = registry.beat('replica-b', REPLICA_LIVE_WITHIN_MS);
      await waitForLockWaiter(runner);
      await runner.commitTransaction();
      // Without the lock, replica-b's census would not see replica-a's uncommitted row: both alone, both whole.
      expect(await census).toMatchObject({ live: 2, rank: 1 });
    } finally {
      await runner.release();
      await other.dataSource.destroy();
    }
  });
});

describeOnPostgres('ReplicaRegistry on its own connection', (engine) => {
  /** Every connection of the data source's pool, taken and held (the writers of a busy replica). */
  async function saturatePool(dataSource: DataSource): Promise<QueryRunner[]> {
    const pool = (dataSource.driver as unknown as { master: { options: { max: number } } }).master;
    return Promise.all(
      Array.from({ length: pool.options.max }, async () => {
        const runner = dataSource.createQueryRunner();
        await runner.connect();
        return runner;
      }),
    );
  }

  it('writes the heartbeat while the writers hold every connection of the pool', async () => {
    const fixture = await storeFixture(engine);
    const pooled = new ReplicaRegistry(fixture.dataSource, fixture.clock);
    const own = new ReplicaRegistry(fixture.dataSource, fixture.clock, { ownConnection: true });
    const writers = await saturatePool(fixture.dataSource);
    let pooledBeat: Promise<unknown> = Promise.resolve();
    try {
      let pooledDone = false;
      pooledBeat = pooled.beat('replica-pooled', REPLICA_LIVE_WITHIN_MS).finally(() => {
        pooledDone = true;
      });
      await expect(own.beat('replica-own', REPLICA_LIVE_WITHIN_MS)).resolves.toMatchObject({ live: 1, rank: 0 });
      const rows = await writers[0].query(`SELECT "heartbeat_at_ms" FROM "giro_replicas" WHERE "owner" = $1`, [
        'replica-own',
      ]);
      expect(rows.map((row: { heartbeat_at_ms: string }) => Number(row.heartbeat_at_ms))).toEqual([T0]);
      // Through the pool, the same beat is still waiting for a connection.
      expect(pooledDone).toBe(false);
    } finally {
      for (const writer of writers) await writer.release();
      await pooledBeat;
      await own.close();
    }
    await fixture.dataSource.destroy();
  });

  it('opens its connection again after the server ended it', async () => {
    const fixture = await storeFixture(engine);
    const own = new ReplicaRegistry(fixture.dataSource, fixture.clock, { ownConnection: true });
    const backends = () =>
      fixture.dataSource.query(
        `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND application_name = $1`,
        ['giro replica heartbeat'],
      ) as Promise<{ pid: number }[]>;
    try {
      await own.beat('replica-own', REPLICA_LIVE_WITHIN_MS);
      const [first] = await backends();
      await fixture.dataSource.query('SELECT pg_terminate_backend($1)', [first.pid]);
      // The beats that find the connection gone fail; one on a connection opened again is written.
      fixture.clock.advance(1_000);
      let written = false;
      for (let tries = 0; tries < 100 && !written; tries++) {
        written = await own.beat('replica-own', REPLICA_LIVE_WITHIN_MS).then(
          () => true,
          () => false,
        );
        if (!written) await sleep(50);
      }
      expect(written).toBe(true);
      const [row] = await fixture.dataSource.query(
        `SELECT "heartbeat_at_ms" FROM "giro_replicas" WHERE "owner" = 'replica-own'`,
      );
      expect(Number(row.heartbeat_at_ms)).toBe(T0 + 1_000);
      expect((await backends()).map(({ pid }) => pid)).not.toContain(first.pid);
    } finally {
      await own.close();
    }
    await fixture.dataSource.destroy();
  });
});

/**
 * Until a session of this database waits for the heartbeats' lock (a 64-bit key below 2^32: its objid); bounded
 * generously, as a loaded machine may take a while to send the heartbeat's statements.
 */
async function waitForLockWaiter(runner: QueryRunner): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    const [{ waiting }] = await runner.query(
      `SELECT COUNT(*)::int AS "waiting" FROM pg_locks l JOIN pg_database d ON d.oid = l.database
        WHERE d.datname = current_database() AND l.locktype = 'advisory' AND l.objid = $1 AND NOT l.granted`,
      [HEARTBEAT_LOCK_KEY],
    );
    if (waiting > 0) return;
    await sleep(25);
  }
  throw new Error('no heartbeat waited for the lock within 20 s');
}
