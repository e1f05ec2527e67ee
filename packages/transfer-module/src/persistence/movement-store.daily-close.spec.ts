import fc from 'fast-check';
import { businessDayBounds, completeCbuCvu, completeCuit } from '../domain';
import type { AccountCloseFigures, CloseTally } from './daily-close';
import type { MovementStore } from './movement-store';
import { sampleIntent } from './testing/sample-intent';
import { type StoreFixture, storeFixture } from './testing/store-fixture';
import { describeEachEngine } from './testing/test-engines';

// The daily close counts each transfer by its own time: created by its creation, completed, failed, rejected and
// canceled by the time it became so, pending at the day's end by both. The property: for transfers made at random
// times with random outcomes, every figure is the sum of exactly the transfers its definition counts.

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const LEASE = 30_000;
const MAKER = { keyId: 'k_maker', name: 'maker' };
const CHECKER = { keyId: 'k_checker', name: 'checker' };
const FAR = Date.UTC(2030, 0, 1);

const OUTCOMES = ['complete', 'fail', 'fail-ack', 'open', 'awaiting', 'reject', 'scheduled', 'cancel'] as const;
type Outcome = (typeof OUTCOMES)[number];

/** A transfer of the script: its account, amount, creation, what becomes of it and when. */
interface Planned {
  account: number;
  cents: number;
  createdAtMs: number;
  outcome: Outcome;
  decidedAtMs: number;
}

function sourceAccount(run: number, account: number) {
  const address = completeCbuCvu('0170001', String(run * 10 + account + 1).padStart(13, '0'));
  const personId = completeCuit('3071234567') ?? '';
  return { address, personId };
}

const cents = (amount: number) => `${Math.floor(amount / 100)}.${String(amount % 100).padStart(2, '0')}`;

/** Makes the planned transfer happen in the store, each step at its own time on the fixture's clock. */
async function enact(fixture: StoreFixture, run: number, originId: number, planned: Planned): Promise<void> {
  const { store, clock } = fixture;
  const { intent, fingerprint } = sampleIntent(originId, {
    amount: cents(planned.cents),
    from: sourceAccount(run, planned.account),
  });
  clock.set(planned.createdAtMs);
  const waits = planned.outcome === 'awaiting' || planned.outcome === 'reject';
  const scheduled = planned.outcome === 'scheduled' || planned.outcome === 'cancel';
  await store.recordIntent(
    intent,
    fingerprint,
    waits
      ? { sendNow: false, awaitingApproval: { expiresAtMs: FAR }, by: MAKER }
      : scheduled
        ? { sendNow: false, scheduled: { executeAtMs: FAR } }
        : { sendNow: false },
  );
  clock.set(planned.decidedAtMs);
  switch (planned.outcome) {
    case 'complete':
      await finish(store, originId, 'COMPLETED');
      return;
    case 'fail':
    case 'fail-ack':
      await finish(store, originId, 'FAILED');
      if (planned.outcome === 'fail-ack') await store.acknowledgeCancellation(originId);
      return;
    case 'reject':
      await store.decideApproval(originId, { kind: 'reject', by: CHECKER, reason: 'no' });
      return;
    case 'cancel':
      await store.cancelScheduled(originId, null);
      return;
    default:
      return;
  }
}

async function finish(store: MovementStore, originId: number, status: 'COMPLETED' | 'FAILED'): Promise<void> {
  await store.claim(originId, 'w', LEASE);
  await store.applyUpdate(originId, 'w', {
    patch: { status },
    history: [{ to: status, source: 'query' }],
    ...(status === 'FAILED' && { cancellation: { code: 'X', message: 'failed' } }),
    releaseLease: true,
  });
}

const FINAL_OF: Partial<Record<Outcome, 'completed' | 'failed' | 'rejected' | 'canceled'>> = {
  complete: 'completed',
  fail: 'failed',
  'fail-ack': 'failed',
  reject: 'rejected',
  cancel: 'canceled',
};

/** The figures the definitions give for one account's planned transfers, counted one by one. */
function expectedFigures(planned: Planned[], startMs: number, endMs: number) {
  const tally = (chosen: Planned[]): CloseTally => ({
    count: chosen.length,
    cents: chosen.reduce((sum, one) => sum + BigInt(one.cents), 0n),
  });
  const inDay = (at: number) => at >= startMs && at < endMs;
  const final = (one: Planned) => FINAL_OF[one.outcome];
  const finalBy = (one: Planned, at: number) => final(one) !== undefined && one.decidedAtMs < at;
  const created = planned.filter((one) => inDay(one.createdAtMs));
  const pending = planned.filter((one) => one.createdAtMs < endMs && !finalBy(one, endMs));
  const finalInDay = (kind: string) => planned.filter((one) => final(one) === kind && inDay(one.decidedAtMs));
  return {
    created: tally(created),
    sent: tally(created.filter((one) => ['complete', 'fail', 'fail-ack', 'open'].includes(one.outcome))),
    completed: tally(finalInDay('completed')),
    failed: tally(finalInDay('failed')),
    failedRegistered: tally(finalInDay('failed').filter((one) => one.outcome === 'fail-ack')),
    failedUnregistered: tally(finalInDay('failed').filter((one) => one.outcome === 'fail')),
    rejected: tally(finalInDay('rejected')),
    canceled: tally(finalInDay('canceled')),
    pendingAtEnd: {
      ...tally(pending),
      oldestCreatedAtMs: pending.length === 0 ? null : Math.min(...pending.map((one) => one.createdAtMs)),
    },
    awaitingApprovalAtEnd: tally(pending.filter((one) => one.outcome === 'awaiting' || one.outcome === 'reject')),
    scheduledAtEnd: tally(pending.filter((one) => one.outcome === 'scheduled' || one.outcome === 'cancel')),
  };
}

const isEmpty = (figures: ReturnType<typeof expectedFigures>) =>
  Object.values(figures).every((tally) => tally.count === 0);

describeEachEngine('MovementStore daily close', (engine) => {
  const day = '2026-11-21';
  const { start, end } = businessDayBounds(day);
  const query = { startMs: start.getTime(), endMs: end.getTime() };

  it('counts each transfer by the time of each figure: creation, becoming final, and not final at the end', async () => {
    const fixture = await storeFixture(engine);
    const plan: Planned[] = [
      // created the day before, completed in the day: completed only
      {
        account: 0,
        cents: 100,
        createdAtMs: start.getTime() - HOUR,
        outcome: 'complete',
        decidedAtMs: start.getTime() + HOUR,
      },
      // created in the day, completed the next: created, sent, pending at the end
      {
        account: 0,
        cents: 250,
        createdAtMs: start.getTime() + 2 * HOUR,
        outcome: 'complete',
        decidedAtMs: end.getTime() + HOUR,
      },
      // created and failed in the day, acknowledged: failed and registered
      {
        account: 0,
        cents: 400,
        createdAtMs: start.getTime() + 3 * HOUR,
        outcome: 'fail-ack',
        decidedAtMs: start.getTime() + 4 * HOUR,
      },
      // waiting for an approval at the end: created, not sent, pending, awaiting approval
      {
        account: 0,
        cents: 800,
        createdAtMs: start.getTime() + 5 * HOUR,
        outcome: 'awaiting',
        decidedAtMs: start.getTime() + 5 * HOUR,
      },
      // scheduled, canceled in the day
      {
        account: 0,
        cents: 1600,
        createdAtMs: start.getTime() + 6 * HOUR,
        outcome: 'cancel',
        decidedAtMs: start.getTime() + 7 * HOUR,
      },
      // created at the very end of the day (the end is excluded): not counted
      { account: 0, cents: 3200, createdAtMs: end.getTime(), outcome: 'open', decidedAtMs: end.getTime() },
      // another account
      { account: 1, cents: 6400, createdAtMs: end.getTime() - 1, outcome: 'reject', decidedAtMs: end.getTime() - 1 },
    ];
    for (const [index, planned] of plan.entries()) await enact(fixture, 0, index + 1, planned);

    const figures = await fixture.store.dailyCloseFigures(query);
    expect(figures.map((one) => one.account)).toEqual([sourceAccount(0, 0).address, sourceAccount(0, 1).address]);
    const [first, second] = figures;
    expect(first).toEqual({
      account: sourceAccount(0, 0).address,
      created: { count: 4, cents: 250n + 400n + 800n + 1600n },
      sent: { count: 2, cents: 650n },
      completed: { count: 1, cents: 100n },
      failed: { count: 1, cents: 400n },
      failedRegistered: { count: 1, cents: 400n },
      failedUnregistered: { count: 0, cents: 0n },
      rejected: { count: 0, cents: 0n },
      canceled: { count: 1, cents: 1600n },
      pendingAtEnd: { count: 2, cents: 1050n, oldestCreatedAtMs: start.getTime() + 2 * HOUR },
      awaitingApprovalAtEnd: { count: 1, cents: 800n },
      scheduledAtEnd: { count: 0, cents: 0n },
    });
    expect(second).toMatchObject({
      created: { count: 1, cents: 6400n },
      sent: { count: 0, cents: 0n },
      rejected: { count: 1, cents: 6400n },
    });

    // One account alone gives that account's figures.
    expect(await fixture.store.dailyCloseFigures({ ...query, account: sourceAccount(0, 1).address })).toEqual([second]);
    // The next day: the transfer created in this one completes there; nothing else pends but the approval.
    const next = businessDayBounds('2026-11-22');
    const [following] = await fixture.store.dailyCloseFigures({
      startMs: next.start.getTime(),
      endMs: next.end.getTime(),
    });
    expect(following).toMatchObject({
      created: { count: 1, cents: 3200n },
      completed: { count: 1, cents: 250n },
      pendingAtEnd: { count: 2, cents: 800n + 3200n },
    });
  });

  it('keeps the time a transfer first became final when the final answer comes again', async () => {
    const fixture = await storeFixture(engine);
    await fixture.record(1);
    await finish(fixture.store, 1, 'COMPLETED');
    const firstAt = fixture.clock.now().getTime();
    fixture.clock.set(end.getTime() + DAY);
    await fixture.store.claim(1, 'w', LEASE);
    await fixture.store.applyUpdate(1, 'w', {
      patch: { status: 'COMPLETED' },
      history: [{ to: 'COMPLETED', source: 'refresh' }],
      releaseLease: true,
    });
    const [row] = await fixture.dataSource.query('SELECT "final_at_ms" FROM "giro_movements" WHERE "origin_id" = 1');
    expect(Number(row.final_at_ms)).toBe(firstAt);
  });

  it('gives every figure as the sum of the transfers its definition counts, for transfers at random times', async () => {
    const fixture = await storeFixture(engine);
    let originId = 0;
    let run = 0;
    const planned = fc.record({
      account: fc.integer({ min: 0, max: 2 }),
      cents: fc.integer({ min: 1, max: 10_000_000_00 }),
      createdAtMs: fc.integer({ min: start.getTime() - DAY, max: end.getTime() + DAY }),
      outcome: fc.constantFrom(...OUTCOMES),
      delayMs: fc.oneof(fc.integer({ min: 0, max: 3 * HOUR }), fc.integer({ min: 0, max: 2 * DAY })),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(planned, { minLength: 1, maxLength: 12 }), async (script) => {
        run += 1;
        const plan: Planned[] = script.map(({ delayMs, ...one }) => ({
          ...one,
          decidedAtMs: one.createdAtMs + delayMs,
        }));
        for (const one of plan) await enact(fixture, run, ++originId, one);
        // Each run has accounts of its own: earlier runs' transfers are not counted in its figures.
        const accounts = [0, 1, 2].map((account) => sourceAccount(run, account).address);
        const figures = (await fixture.store.dailyCloseFigures(query)).filter((one) => accounts.includes(one.account));
        const expected = [0, 1, 2]
          .map((account) => ({
            account,
            figures: expectedFigures(
              plan.filter((one) => one.account === account),
              query.startMs,
              query.endMs,
            ),
          }))
          .filter(({ figures }) => !isEmpty(figures))
          .map(({ account, figures }): AccountCloseFigures => ({ account: accounts[account], ...figures }));
        expect(figures).toEqual(expected);
      }),
      { numRuns: 15 },
    );
  });
});
