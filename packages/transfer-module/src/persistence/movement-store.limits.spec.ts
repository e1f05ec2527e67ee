import { type DecimalAmount, SourceAccountLimits, type SourceAccountLimitsOptions } from '../domain';
import { MovementStore } from './movement-store';
import { LimitExceededError } from './persistence.errors';
import { sampleIntent } from './testing/sample-intent';
import { type StoreFixture, storeFixture, T0 } from './testing/store-fixture';
import { describeEachEngine } from './testing/test-engines';

// Limits per source account in the store: a new intent takes its share of its account's day in its own
// transaction, or nothing is stored; FAILED gives the share back; replicas racing never pass a limit.

const LEASE = 30_000;
const TODAY = '2026-11-21'; // T0 is 12:00 UTC, 09:00 in Buenos Aires
const SOURCE = sampleIntent(1).intent.from.address;

describeEachEngine('MovementStore limits per source account', (engine) => {
  async function limited(options: SourceAccountLimitsOptions) {
    const fixture = await storeFixture(engine);
    const store = new MovementStore(fixture.dataSource, fixture.clock, { limits: SourceAccountLimits.from(options) });
    const record = (originId: number, amount: string) => {
      const { intent, fingerprint } = sampleIntent(originId, { amount });
      return store.recordIntent(intent, fingerprint, { sendNow: true, owner: 'w', leaseMs: LEASE });
    };
    return { fixture, store, record };
  }

  async function refusalOf(work: Promise<unknown>) {
    const error = await work.then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(LimitExceededError);
    return (error as LimitExceededError).refusal;
  }

  async function fail(store: MovementStore, originId: number) {
    return store.applyUpdate(originId, 'w', {
      patch: { status: 'FAILED' },
      history: [{ to: 'FAILED', source: 'create' }],
      cancellation: { code: 'REJECTED', message: 'no' },
      releaseLease: true,
    });
  }

  it('lets the daily amount be reached exactly and refuses one cent over it, storing nothing', async () => {
    const { store, record } = await limited({ default: { dailyAmount: '1000.00' } });
    await record(1, '600.00');
    expect(await refusalOf(record(2, '400.01'))).toEqual({
      rule: 'daily_amount',
      address: SOURCE,
      limit: '1000.00',
      remaining: '400.00',
    });
    expect(await store.findByOriginId(2)).toBeNull();
    expect((await record(3, '400.00')).created).toBe(true);
    expect(await refusalOf(record(4, '0.01'))).toMatchObject({ rule: 'daily_amount', remaining: '0.00' });
    expect(await store.limitUsageOn()).toEqual([{ address: SOURCE, day: TODAY, amount: '1000.00', transfers: 2 }]);
  });

  it('previews new intents in order against the day’s usage, taking nothing', async () => {
    const OTHER = '0000003110000000000999';
    const { store, record } = await limited({
      accounts: { [SOURCE]: { dailyAmount: '1000.00', dailyCount: 3, perTransfer: '700.00' } },
    });
    await record(1, '300.00');
    const amount = (value: string) => value as DecimalAmount;
    const preview = await store.previewLimits([
      { address: SOURCE, amount: amount('400.00') },
      { address: SOURCE, amount: amount('800.00') }, // over the per-transfer maximum: takes no share of the preview
      { address: OTHER, amount: amount('5000.00') }, // an account without limits
      { address: SOURCE, amount: amount('300.01') }, // 300 + 400 used: 300.00 remain
      { address: SOURCE, amount: amount('200.00') }, // the third of the day: the count allows it
      { address: SOURCE, amount: amount('0.01') }, // within the amount, but a fourth
    ]);
    expect(preview).toEqual([
      undefined,
      { rule: 'per_transfer', address: SOURCE, limit: '700.00', amount: '800.00' },
      undefined,
      { rule: 'daily_amount', address: SOURCE, limit: '1000.00', remaining: '300.00' },
      undefined,
      { rule: 'daily_count', address: SOURCE, limit: 3, remaining: 0 },
    ]);
    expect(await store.limitUsageOn()).toEqual([{ address: SOURCE, day: TODAY, amount: '300.00', transfers: 1 }]);
  });

  it('counts transfers per day, and starts again at 03:00 UTC (midnight in Buenos Aires)', async () => {
    const { fixture, store, record } = await limited({ default: { dailyCount: 2 } });
    fixture.clock.set(Date.UTC(2026, 10, 22, 2, 59, 59, 999)); // still the 21st in Buenos Aires
    await record(1, '10.00');
    await record(2, '10.00');
    expect(await refusalOf(record(3, '10.00'))).toEqual({
      rule: 'daily_count',
      address: SOURCE,
      limit: 2,
      remaining: 0,
    });
    fixture.clock.set(Date.UTC(2026, 10, 22, 3, 0, 0));
    await record(4, '10.00');
    expect(await store.limitUsageOn(TODAY)).toEqual([{ address: SOURCE, day: TODAY, amount: '20.00', transfers: 2 }]);
    expect(await store.limitUsageOn()).toEqual([{ address: SOURCE, day: '2026-11-22', amount: '10.00', transfers: 1 }]);
  });

  it('refuses a transfer above the per-transfer maximum without touching the usage', async () => {
    const { store, record } = await limited({
      default: { perTransfer: '100.00', dailyCount: 10 },
      accounts: { [SOURCE]: { perTransfer: '50.00' } },
    });
    expect(await refusalOf(record(1, '50.01'))).toEqual({
      rule: 'per_transfer',
      address: SOURCE,
      limit: '50.00',
      amount: '50.01',
    });
    expect(await store.findByOriginId(1)).toBeNull();
    expect(await store.limitUsageOn()).toEqual([]);
    await record(2, '50.00');
    expect(await store.limitUsageOn()).toMatchObject([{ transfers: 1 }]);
  });

  it('does not count a replay of the same originId twice', async () => {
    const { store, record } = await limited({ default: { dailyAmount: '100.00', dailyCount: 5 } });
    expect((await record(1, '60.00')).created).toBe(true);
    expect((await record(1, '60.00')).created).toBe(false);
    expect(await store.limitUsageOn()).toEqual([{ address: SOURCE, day: TODAY, amount: '60.00', transfers: 1 }]);
  });

  it('frees a FAILED transfer’s share of the day it was created, in the same transaction as FAILED', async () => {
    const { fixture, store, record } = await limited({ default: { dailyAmount: '100.00', dailyCount: 2 } });
    await record(1, '70.00');
    await record(2, '30.00');
    expect(await refusalOf(record(3, '30.00'))).toMatchObject({ rule: 'daily_amount', remaining: '0.00' });
    fixture.clock.advance(1000);
    expect(await fail(store, 2)).toMatchObject({ applied: true, movement: { status: 'FAILED' } });
    expect(await store.limitUsageOn()).toEqual([{ address: SOURCE, day: TODAY, amount: '70.00', transfers: 1 }]);
    expect((await record(3, '30.00')).created).toBe(true);
    // A movement created yesterday that fails today frees yesterday's share, not today's.
    fixture.clock.set(Date.UTC(2026, 10, 22, 12, 0, 0));
    await record(4, '5.00');
    expect(await store.claim(1, 'w', LEASE)).not.toBeNull(); // its first lease expired long ago
    expect(await fail(store, 1)).toMatchObject({ applied: true });
    expect(await store.limitUsageOn(TODAY)).toEqual([{ address: SOURCE, day: TODAY, amount: '30.00', transfers: 1 }]);
    expect(await store.limitUsageOn()).toEqual([{ address: SOURCE, day: '2026-11-22', amount: '5.00', transfers: 1 }]);
  });

  it('frees nothing for a movement recorded before any daily limit applied', async () => {
    const fixture = await storeFixture(engine);
    const { intent, fingerprint } = sampleIntent(1, { amount: '40.00' });
    await fixture.store.recordIntent(intent, fingerprint, { sendNow: true, owner: 'w', leaseMs: LEASE });
    const store = new MovementStore(fixture.dataSource, fixture.clock, {
      limits: SourceAccountLimits.from({ default: { dailyAmount: '100.00' } }),
    });
    const other = sampleIntent(2, { amount: '100.00' });
    await store.recordIntent(other.intent, other.fingerprint, { sendNow: false });
    await fail(store, 1);
    expect(await store.limitUsageOn()).toEqual([{ address: SOURCE, day: TODAY, amount: '100.00', transfers: 1 }]);
  });

  it('records an intent in one more statement when a daily limit applies, none more without', async () => {
    const { fixture, store } = await limited({ default: { dailyAmount: '100000.00' } });
    const statements = async (target: MovementStore, originId: number) => {
      const log = jest.spyOn(fixture.dataSource.logger, 'logQuery');
      try {
        const { intent, fingerprint } = sampleIntent(originId);
        await target.recordIntent(intent, fingerprint, { sendNow: false });
        return log.mock.calls.map(([sql]) => sql.trim()).filter((sql) => !/^(BEGIN|START|COMMIT|PRAGMA)/.test(sql));
      } finally {
        log.mockRestore();
      }
    };
    const plain = await statements(fixture.store, 1);
    const withLimits = await statements(store, 2);
    expect(withLimits).toHaveLength(plain.length + 1);
    expect(withLimits.filter((sql) => sql.includes('giro_limit_usage'))).toHaveLength(1);
    const perTransferOnly = new MovementStore(fixture.dataSource, fixture.clock, {
      limits: SourceAccountLimits.from({ default: { perTransfer: '5000.00' } }),
    });
    expect(await statements(perTransferOnly, 3)).toHaveLength(plain.length);
  });

  it('lets exactly one of two connections racing for the last share win', async () => {
    const { fixture, store, record } = await limited({ default: { dailyAmount: '100.00', dailyCount: 10 } });
    await record(1, '60.00');
    const limits = SourceAccountLimits.from({ default: { dailyAmount: '100.00', dailyCount: 10 } });
    const other = new MovementStore((await fixture.secondConnection()).dataSource, fixture.clock, { limits });
    for (let round = 0; round < 5; round += 1) {
      const a = sampleIntent(100 + 2 * round, { amount: '40.00' });
      const b = sampleIntent(101 + 2 * round, { amount: '40.00' });
      const results = await Promise.allSettled([
        store.recordIntent(a.intent, a.fingerprint, { sendNow: true, owner: 'w', leaseMs: LEASE }),
        other.recordIntent(b.intent, b.fingerprint, { sendNow: true, owner: 'w', leaseMs: LEASE }),
      ]);
      const won = results.filter((result) => result.status === 'fulfilled');
      const lost = results.filter((result) => result.status === 'rejected');
      expect(won).toHaveLength(1);
      expect(lost.map((result) => (result as PromiseRejectedResult).reason)).toEqual([expect.any(LimitExceededError)]);
      expect(await store.limitUsageOn()).toEqual([{ address: SOURCE, day: TODAY, amount: '100.00', transfers: 2 }]);
      // Free the winner's share for the next round.
      const winner = (won[0] as PromiseFulfilledResult<{ movement: { originId: number } }>).value.movement.originId;
      await fail(store, winner);
    }
  });

  it('never passes a limit when many intents race on two connections', async () => {
    const { fixture, store } = await limited({ default: { dailyCount: 7 } });
    const limits = SourceAccountLimits.from({ default: { dailyCount: 7 } });
    const other = new MovementStore((await fixture.secondConnection()).dataSource, fixture.clock, { limits });
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, (_, index) => {
        const { intent, fingerprint } = sampleIntent(200 + index, { amount: '1.00' });
        return (index % 2 === 0 ? store : other).recordIntent(intent, fingerprint, { sendNow: false });
      }),
    );
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(7);
    expect((await store.list({ limit: 100 })).items).toHaveLength(7);
    expect(await store.limitUsageOn()).toEqual([{ address: SOURCE, day: TODAY, amount: '7.00', transfers: 7 }]);
  });

  it('exposes no usage when no limit is configured', async () => {
    const fixture: StoreFixture = await storeFixture(engine);
    await fixture.record(1);
    expect(await fixture.store.limitUsageOn()).toEqual([]);
    expect(T0).toBeLessThan(Date.UTC(2026, 10, 22, 3));
  });
});
