import { transferRequest } from '@test-support/giro-harness';
import { completeCbuCvu, completeCuit } from '../domain';
import type { TransferModuleOptions } from '../options';
import { describeEachEngine } from '../persistence/testing/test-engines';
import { ApprovalService } from '../transfer/approval.service';
import { transferServiceFixture } from '../transfer/testing/transfer-service-fixture';
import { SweepService } from './sweep.service';

// Wednesday 2026-12-23 in Buenos Aires (UTC−3); Thursday the 24th is a business day, Friday the 25th Christmas.
const buenosAires = (day: number, hours: number, minutes = 0) => Date.UTC(2026, 11, day, hours + 3, minutes);
const WEDNESDAY_NOON = buenosAires(23, 12);
const OTHER_ACCOUNT = { address: completeCbuCvu('0000003', '1000000000031'), personId: completeCuit('3071234567') };

describeEachEngine('the sweep: a fair share of the bank, and its hours', (engine) => {
  const { fixture, setup } = transferServiceFixture(engine);

  async function sweeping(overrides: Partial<TransferModuleOptions> = {}) {
    fixture.clock.set(WEDNESDAY_NOON);
    const parts = await setup(overrides);
    const { options, store, sender, schedule, work, owner, events, logger } = parts.fixture;
    return {
      ...parts,
      sweeper: new SweepService(options, store, sender, schedule, work, owner, logger, events),
      approvals: new ApprovalService(options, store, sender, events, work, owner, logger),
      /** The originIds the bank has heard of, in the order it heard them. */
      atTheBank: () => fixture.bank.ledger.page().entries.map((entry) => entry.originId),
    };
  }

  it("sends another account's scheduled transfer in the first batch while one account's 40 go at the same moment", async () => {
    const { transfers, sweeper, atTheBank } = await sweeping({ sweep: { batchSize: 5, concurrency: 1 } });
    const executeAt = new Date(WEDNESDAY_NOON + 60_000).toISOString();
    for (let i = 0; i < 40; i++) await transfers.requestTransfer({ ...transferRequest(`payroll ${i}`), executeAt });
    const urgent = await transfers.requestTransfer({
      ...transferRequest('urgent', { from: OTHER_ACCOUNT as { address: string; personId: string } }),
      executeAt,
    });
    fixture.clock.set(WEDNESDAY_NOON + 60_000);
    expect(await sweeper.sweep()).toMatchObject({ released: 41, sent: 41 });
    expect(atTheBank().indexOf(urgent.movement.originId)).toBeLessThan(5);
  });

  it('sends nothing outside the bank hours, and everything from the opening', async () => {
    const { transfers, sweeper, movements, atTheBank } = await sweeping({
      schedule: { bankOperatingHours: '08:00-20:00' },
    });
    // Thursday 07:00 a scheduled one is due, but the bank is not open yet.
    const scheduled = await transfers.requestTransfer({
      ...transferRequest('rent'),
      executeAt: new Date(buenosAires(24, 7)).toISOString(),
    });
    fixture.clock.set(buenosAires(23, 20, 30));
    const late = await transfers.requestTransfer(transferRequest('after hours'));
    expect(late.movement.status).toBe('PENDING');
    const report = await sweeper.sweep();
    expect(report).toMatchObject({ released: 0, sent: 0, nextDueAt: new Date(buenosAires(24, 8)) });

    fixture.clock.set(buenosAires(24, 8) - 1);
    expect(await sweeper.sweep()).toMatchObject({ released: 0, sent: 0 });
    expect(atTheBank()).toEqual([]);

    fixture.clock.set(buenosAires(24, 8));
    expect(await sweeper.sweep()).toMatchObject({ released: 1, sent: 2 });
    expect(atTheBank().sort()).toEqual([scheduled.movement.originId, late.movement.originId].sort());
    expect((await movements.getMovement(late.movement.originId)).status).not.toBe('PENDING');
  });

  it('keeps an approval given after hours from the bank until the opening', async () => {
    const { transfers, approvals, sweeper, atTheBank } = await sweeping({
      schedule: { bankOperatingHours: '08:00-20:00' },
      approvals: { requiredAbove: '0' },
    });
    const operator = { keyId: 'key_operator', name: 'operator' };
    const { movement } = await transfers.requestTransfer(transferRequest('rent'), { by: operator });
    fixture.clock.set(buenosAires(23, 21));
    const approved = await approvals.approve(movement.originId, { keyId: 'key_approver', name: 'approver' });
    expect(approved.status).toBe('PENDING');
    expect(await sweeper.sweep()).toMatchObject({ sent: 0, nextDueAt: new Date(buenosAires(24, 8)) });
    expect(atTheBank()).toEqual([]);
    fixture.clock.set(buenosAires(24, 8));
    expect(await sweeper.sweep()).toMatchObject({ sent: 1 });
    expect(atTheBank()).toEqual([movement.originId]);
  });

  it('waits over a weekend and a holiday for the next business day', async () => {
    const { transfers, sweeper, atTheBank } = await sweeping({ schedule: { bankOperatingHours: '08:00-20:00' } });
    // Thursday 24th, 20:00: closed until Monday the 28th (Friday is Christmas).
    fixture.clock.set(buenosAires(24, 20));
    await transfers.requestTransfer(transferRequest('Christmas eve'));
    expect(await sweeper.sweep()).toMatchObject({ sent: 0, nextDueAt: new Date(buenosAires(28, 8)) });
    fixture.clock.set(buenosAires(26, 12));
    expect(await sweeper.sweep()).toMatchObject({ sent: 0 });
    expect(atTheBank()).toEqual([]);
  });
});
