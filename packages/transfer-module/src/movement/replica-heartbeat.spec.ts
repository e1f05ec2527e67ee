import { BankCallBudget, BankRateLimitedError } from '../bank';
import { ReplicaRegistry } from '../persistence';
import { storeFixture } from '../persistence/testing/store-fixture';
import { describeEachEngine } from '../persistence/testing/test-engines';
import { REPLICA_LIVE_WITHIN_MS, ReplicaHeartbeat } from './replica-heartbeat';
import { silentLogger } from './testing/sender-fixture';

// Replicas on one database share the bank budget through their heartbeats: each takes 1/N of the deployment's
// rate and in-flight cap, a 429's pause reaches every one, and a replica that stops is no longer counted.

describeEachEngine('ReplicaHeartbeat', (engine) => {
  async function replicas(count: number) {
    const fixture = await storeFixture(engine);
    const registry = new ReplicaRegistry(fixture.dataSource, fixture.clock);
    const made = Array.from({ length: count }, (_, index) => {
      const budget = new BankCallBudget({ maxInFlight: 8, ratePerSecond: 40 });
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
    const { replicas: two } = await replicas(2);
    for (const { heartbeat } of two) await heartbeat.beat();
    const limited = new BankRateLimitedError('rate-limited', {
      operation: 'get-movement',
      httpStatus: 429,
      retryAfterMs: 60_000,
    });
    await expect(two[0].budget.throttle('query', () => Promise.reject(limited))).rejects.toBe(limited);
    const until = two[0].budget.pausedUntil as number;
    expect(until).toBeGreaterThan(Date.now() + 50_000);
    expect(two[1].budget.pausedUntil).toBeNull();
    await two[0].heartbeat.beat(); // writes the pause
    await two[1].heartbeat.beat(); // reads it
    expect(two[1].budget.pausedUntil).toBe(until);
  });

  it('keeps the last share when the database does not answer, and never throws', async () => {
    const { fixture, replicas: two } = await replicas(2);
    for (let round = 0; round < 2; round++) for (const { heartbeat } of two) await heartbeat.beat();
    await fixture.dataSource.destroy();
    await expect(two[0].heartbeat.beat()).resolves.toBeUndefined();
    expect(two[0].budget.ratePerSecond).toBe(20);
  });
});
