import { SourceAccountLimits } from '../domain';
import { MovementStore } from './movement-store';
import {
  ApprovalExpiredError,
  ApprovalNotAwaitedError,
  SelfApprovalError,
  UnsentMovementError,
} from './persistence.errors';
import { sampleIntent } from './testing/sample-intent';
import { type StoreFixture, storeFixture, T0 } from './testing/store-fixture';
import { describeEachEngine } from './testing/test-engines';

// Maker–checker in the store: a transfer AWAITING_APPROVAL is never due and never leased; one decision per
// transfer, never by its creator; REJECTED (by an approver or by expiry) is final and frees its limit share.

const HOUR = 3_600_000;
const LEASE = 30_000;
const MAKER = { keyId: 'k_maker', name: 'maker' };
const CHECKER = { keyId: 'k_checker', name: 'checker' };
const OTHER_CHECKER = { keyId: 'k_other', name: 'other checker' };

describeEachEngine('MovementStore approvals', (engine) => {
  let fixture: StoreFixture;

  beforeEach(async () => {
    fixture = await storeFixture(engine);
  });

  function awaiting(originId: number, store: MovementStore = fixture.store, amount = '5000.00') {
    const { intent, fingerprint } = sampleIntent(originId, { amount });
    return store.recordIntent(intent, fingerprint, {
      sendNow: false,
      awaitingApproval: { expiresAtMs: T0 + HOUR },
      by: MAKER,
    });
  }

  const errorOf = (work: Promise<unknown>) =>
    work.then(
      () => undefined,
      (error: unknown) => error,
    );

  it('stores a transfer AWAITING_APPROVAL with its creator: never due, never leased', async () => {
    await awaiting(1);
    const stored = await fixture.store.findByOriginId(1);
    expect(stored).toMatchObject({ status: 'AWAITING_APPROVAL', nextQueryAt: null, attempts: 0 });
    expect(stored?.approvalExpiresAt).toEqual(new Date(T0 + HOUR));
    expect(stored?.history).toEqual([expect.objectContaining({ from: null, to: 'AWAITING_APPROVAL', by: MAKER })]);
    fixture.clock.advance(10 * HOUR);
    expect(await fixture.store.claimDue({ owner: 'w', limit: 10, leaseMs: LEASE })).toEqual([]);
    expect(await fixture.store.nextDueAt()).toBeNull();
    expect(await errorOf(fixture.store.claim(1, 'w', LEASE))).toBeInstanceOf(UnsentMovementError);
    expect(await fixture.store.markSendAttempt(1, 'w')).toBe(false);
    expect((await fixture.store.countByStatus()).AWAITING_APPROVAL).toBe(1);
  });

  it('lets another key approve it: PENDING, due at once, the approver on its history row', async () => {
    await awaiting(1);
    fixture.clock.advance(1_000);
    const { movement, history } = await fixture.store.decideApproval(1, { kind: 'approve', by: CHECKER });
    expect(movement).toMatchObject({ status: 'PENDING', nextQueryAt: new Date(T0 + 1_000), approvalExpiresAt: null });
    expect(history).toMatchObject({ from: 'AWAITING_APPROVAL', to: 'PENDING', source: 'approval', by: CHECKER });
    const claimed = await fixture.store.claimDue({ owner: 'w', limit: 10, leaseMs: LEASE });
    expect(claimed.map((row) => row.originId)).toEqual([1]);
  });

  it('refuses the approval of its own creator, and changes nothing', async () => {
    await awaiting(1);
    const error = await errorOf(fixture.store.decideApproval(1, { kind: 'approve', by: MAKER }));
    expect(error).toBeInstanceOf(SelfApprovalError);
    expect((await fixture.store.findByOriginId(1))?.status).toBe('AWAITING_APPROVAL');
  });

  it('decides once when two approvers race, on two connections', async () => {
    await awaiting(1);
    const second = await fixture.secondConnection();
    try {
      const results = await Promise.allSettled([
        fixture.store.decideApproval(1, { kind: 'approve', by: CHECKER }),
        second.store.decideApproval(1, { kind: 'reject', by: OTHER_CHECKER, reason: 'too large' }),
      ]);
      const decided = results.filter((result) => result.status === 'fulfilled');
      const refused = results.filter((result) => result.status === 'rejected');
      expect(decided).toHaveLength(1);
      expect(refused.map((result) => (result as PromiseRejectedResult).reason)).toEqual([
        expect.any(ApprovalNotAwaitedError),
      ]);
      const history = (await fixture.store.findByOriginId(1))?.history ?? [];
      expect(history.filter((row) => row.from === 'AWAITING_APPROVAL')).toHaveLength(1);
    } finally {
      await second.dataSource.destroy();
    }
  });

  it('rejects with a reason: REJECTED, final, and the daily limit share is free again', async () => {
    const limits = SourceAccountLimits.from({ default: { dailyAmount: '6000.00' } });
    const store = new MovementStore(fixture.dataSource, fixture.clock, { limits });
    await awaiting(1, store);
    expect((await store.limitUsageOn())[0]).toMatchObject({ amount: '5000.00', transfers: 1 });
    const { movement, history } = await store.decideApproval(1, {
      kind: 'reject',
      by: CHECKER,
      reason: 'unknown payee',
    });
    expect(movement).toMatchObject({ status: 'REJECTED', nextQueryAt: null });
    expect(history).toMatchObject({ to: 'REJECTED', source: 'rejection', detail: { reason: 'unknown payee' } });
    expect((await store.limitUsageOn())[0]).toMatchObject({ amount: '0.00', transfers: 0 });
    expect(await errorOf(store.decideApproval(1, { kind: 'approve', by: CHECKER }))).toBeInstanceOf(
      ApprovalNotAwaitedError,
    );
    expect(await errorOf(store.claim(1, 'w', LEASE))).toBeInstanceOf(UnsentMovementError);
  });

  it('refuses a decision about a transfer that never waited', async () => {
    await fixture.record(1);
    const error = await errorOf(fixture.store.decideApproval(1, { kind: 'approve', by: CHECKER }));
    expect(error).toMatchObject({ name: 'ApprovalNotAwaitedError', status: 'PENDING' });
  });

  it('expires the ones no one decided about in time: REJECTED by expiry, and then no approval', async () => {
    await awaiting(1);
    await awaiting(2);
    expect(await fixture.store.nextApprovalExpiryAt()).toEqual(new Date(T0 + HOUR));
    fixture.clock.advance(HOUR - 1);
    expect(await fixture.store.expireApprovals(10)).toEqual([]);
    fixture.clock.advance(1);
    // Past its expiry, before a sweep wrote it: no approval either.
    expect(await errorOf(fixture.store.decideApproval(1, { kind: 'approve', by: CHECKER }))).toBeInstanceOf(
      ApprovalExpiredError,
    );
    const first = await fixture.store.expireApprovals(1);
    const rest = await fixture.store.expireApprovals(10);
    expect([...first, ...rest].map((outcome) => outcome.history)).toEqual([
      expect.objectContaining({ to: 'REJECTED', source: 'expiry', by: null }),
      expect.objectContaining({ to: 'REJECTED', source: 'expiry', by: null }),
    ]);
    expect((await fixture.store.countByStatus()).REJECTED).toBe(2);
    expect(await fixture.store.nextApprovalExpiryAt()).toBeNull();
  });
});
