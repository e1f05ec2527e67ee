import { transferRequest } from '@test-support/giro-harness';
import { MovementEvents, type MovementStatusChangedEvent, TRANSFER_EVENTS } from '../movement/movement-events';
import type { TransferModuleOptions } from '../options';
import { TransferNotScheduledError } from '../persistence';
import { describeEachEngine } from '../persistence/testing/test-engines';
import { ApprovalService } from '../transfer/approval.service';
import { ScheduledTransferService } from '../transfer/scheduled-transfer.service';
import { transferServiceFixture } from '../transfer/testing/transfer-service-fixture';
import { ScheduleRefusedError, TransferConflictError, TransferLimitError } from '../transfer/transfer.errors';
import { SweepService } from './sweep.service';

// Wednesday 2026-12-23, 12:00 in Buenos Aires: Christmas on Friday, the next business day Monday the 28th.
const WEDNESDAY_NOON = Date.UTC(2026, 11, 23, 15, 0, 0);
const SECOND = 1000;
const OPERATOR = { keyId: 'key_operator', name: 'operator' };
const APPROVER = { keyId: 'key_approver', name: 'approver' };

describeEachEngine('scheduled transfers', (engine) => {
  const { fixture, setup } = transferServiceFixture(engine);

  async function scheduling(overrides: Partial<TransferModuleOptions> = {}) {
    fixture.clock.set(WEDNESDAY_NOON);
    const parts = await setup(overrides);
    const { options, store, sender, schedule, work, owner, events, logger } = parts.fixture;
    return {
      ...parts,
      sweeper: new SweepService(options, store, sender, schedule, work, owner, logger, events),
      scheduled: new ScheduledTransferService(store, events, work),
      approvals: new ApprovalService(options, store, sender, events, work, owner, logger),
      /** The originIds the bank has heard of. */
      atTheBank: () => fixture.bank.ledger.page().entries.map((entry) => entry.originId),
    };
  }

  const at = (ms: number) => new Date(ms).toISOString();

  it('keeps a transfer from the bank until its moment, then sends it', async () => {
    const { transfers, sweeper, movements, atTheBank } = await scheduling();
    const executeAt = at(WEDNESDAY_NOON + 20 * SECOND);
    const { movement } = await transfers.requestTransfer({ ...transferRequest('rent'), executeAt });
    expect(movement).toMatchObject({ status: 'SCHEDULED', schedule: { executeAt, requested: { executeAt } } });
    expect(movement.history).toEqual([expect.objectContaining({ from: null, to: 'SCHEDULED', source: 'intent' })]);

    fixture.clock.set(WEDNESDAY_NOON + 20 * SECOND - 1);
    expect(await sweeper.sweep()).toMatchObject({ released: 0, sent: 0, nextDueAt: new Date(executeAt) });
    expect(atTheBank()).toEqual([]);

    fixture.clock.set(WEDNESDAY_NOON + 20 * SECOND);
    expect(await sweeper.sweep()).toMatchObject({ released: 1, sent: 1 });
    expect(atTheBank()).toEqual([movement.originId]);
    const sent = await movements.getMovement(movement.originId);
    expect(sent.history.map((row) => [row.from, row.to, row.source])).toEqual([
      [null, 'SCHEDULED', 'intent'],
      ['SCHEDULED', 'PENDING', 'release'],
      // Sent by the sweep, as every creation it sends: `resend`.
      ['PENDING', sent.status, 'resend'],
    ]);
    expect(sent.schedule).toEqual({ executeAt, requested: { executeAt } });
  });

  it('announces each transfer a claim released, read as released, before its send', async () => {
    const parts = await scheduling();
    const { transfers, atTheBank } = parts;
    const { options, store, sender, schedule, work, owner, logger } = parts.fixture;
    const announced: MovementStatusChangedEvent[] = [];
    const sink = {
      emit: (event: string, payload: unknown) => {
        if (event === TRANSFER_EVENTS.statusChanged) announced.push(payload as MovementStatusChangedEvent);
      },
    };
    const sweeper = new SweepService(
      options,
      store,
      sender,
      schedule,
      work,
      owner,
      logger,
      new MovementEvents(sink, store, logger),
    );
    const executeAt = at(WEDNESDAY_NOON + 20 * SECOND);
    const originIds: number[] = [];
    for (const label of ['rent', 'salary', 'supplier']) {
      originIds.push((await transfers.requestTransfer({ ...transferRequest(label), executeAt })).movement.originId);
    }

    fixture.clock.set(WEDNESDAY_NOON + 20 * SECOND);
    expect(await sweeper.sweep()).toMatchObject({ released: 3, sent: 3 });
    expect([...atTheBank()].sort()).toEqual([...originIds].sort());
    expect(
      announced.map(({ originId, from, to, source, movement }) => [originId, from, to, source, movement.status]),
    ).toEqual(
      expect.arrayContaining(originIds.map((originId) => [originId, 'SCHEDULED', 'PENDING', 'release', 'PENDING'])),
    );
    expect(announced).toHaveLength(3);
  });

  it('moves a day off the calendar by the policy, and refuses it under `refuse` with nothing stored', async () => {
    const { transfers } = await scheduling();
    const { movement } = await transfers.requestTransfer({ ...transferRequest('rent'), executeOn: '2026-12-25' });
    // Monday the 28th at 09:00 in Buenos Aires (UTC−3).
    expect(movement.schedule).toEqual({
      executeAt: '2026-12-28T12:00:00.000Z',
      requested: { executeOn: '2026-12-25' },
    });

    const earlier = await scheduling({ schedule: { nonBusinessDayPolicy: 'previous', releaseTime: '07:30' } });
    const previous = await earlier.transfers.requestTransfer({ ...transferRequest('rent'), executeOn: '2026-12-25' });
    expect(previous.movement.schedule?.executeAt).toBe('2026-12-24T10:30:00.000Z');

    const strict = await scheduling({ schedule: { nonBusinessDayPolicy: 'refuse' } });
    const refusal = strict.transfers.requestTransfer({ ...transferRequest('rent'), executeOn: '2026-12-25' });
    await expect(refusal).rejects.toBeInstanceOf(ScheduleRefusedError);
    await expect(refusal).rejects.toMatchObject({
      code: 'SCHEDULE_REFUSED',
      violations: [{ field: 'executeOn', rule: 'business_day', params: { next: '2026-12-28' } }],
    });
    expect(Object.values(await strict.store.countByStatus()).reduce((sum, count) => sum + count, 0)).toBe(0);
  });

  it('sends at once a transfer whose moment has passed, and refuses a day already gone', async () => {
    const { transfers, atTheBank } = await scheduling();
    const late = await transfers.requestTransfer({ ...transferRequest('rent'), executeAt: at(WEDNESDAY_NOON - 1) });
    expect(late.movement.status).not.toBe('SCHEDULED');
    expect(atTheBank()).toEqual([late.movement.originId]);
    await expect(
      transfers.requestTransfer({ ...transferRequest('rent'), executeOn: '2026-12-22' }),
    ).rejects.toMatchObject({
      code: 'SCHEDULE_REFUSED',
      violations: [{ field: 'executeOn', rule: 'past', params: { today: '2026-12-23' } }],
    });
  });

  it('cancels a scheduled transfer for good: never sent, and once only', async () => {
    const { transfers, scheduled, sweeper, atTheBank } = await scheduling();
    const request = { ...transferRequest('rent'), executeAt: at(WEDNESDAY_NOON + 60 * SECOND) };
    const { movement } = await transfers.requestTransfer(request);
    const canceled = await scheduled.cancel(movement.originId, OPERATOR);
    expect(canceled).toMatchObject({ status: 'CANCELED', nextQueryAt: null });
    expect(canceled.history.at(-1)).toMatchObject({
      from: 'SCHEDULED',
      to: 'CANCELED',
      source: 'cancel',
      by: OPERATOR,
    });
    await expect(scheduled.cancel(movement.originId)).rejects.toBeInstanceOf(TransferNotScheduledError);

    fixture.clock.set(WEDNESDAY_NOON + 120 * SECOND);
    expect(await sweeper.sweep()).toMatchObject({ released: 0, sent: 0 });
    expect(atTheBank()).toEqual([]);
    // The same originId and payload answer the canceled transfer; nothing is sent again.
    expect(await transfers.requestTransfer({ ...request, originId: movement.originId })).toMatchObject({
      created: false,
      movement: { status: 'CANCELED' },
    });
  });

  it('decides a cancel racing the release once: canceled and never sent, or sent and the cancel refused', async () => {
    const { transfers, scheduled, sweeper, movements, atTheBank } = await scheduling();
    const moment = WEDNESDAY_NOON + 10 * SECOND;
    const originIds: number[] = [];
    for (let i = 0; i < 6; i++) {
      const request = { ...transferRequest(`rent ${i}`), executeAt: at(moment) };
      originIds.push((await transfers.requestTransfer(request)).movement.originId);
    }
    fixture.clock.set(moment);
    const cancels = await Promise.all([
      sweeper.sweep(),
      ...originIds.map((originId) =>
        scheduled.cancel(originId).then(
          () => 'canceled',
          (error: Error) => error.name,
        ),
      ),
    ]).then(([, ...outcomes]) => outcomes);
    await sweeper.sweep();
    for (const [index, originId] of originIds.entries()) {
      const { status } = await movements.getMovement(originId);
      if (cancels[index] === 'canceled') {
        expect(status).toBe('CANCELED');
        expect(atTheBank()).not.toContain(originId);
      } else {
        expect(cancels[index]).toBe('TransferNotScheduledError');
        expect(status).not.toBe('CANCELED');
        expect(atTheBank()).toContain(originId);
      }
    }
  });

  it('counts limits on the execution day, and a cancel frees its share', async () => {
    const { transfers, scheduled } = await scheduling({ limits: { default: { dailyCount: 1 } } });
    const monday = { ...transferRequest('rent'), executeOn: '2026-12-28' };
    const first = await transfers.requestTransfer(monday);
    // Today's count is untouched by Monday's transfer.
    await expect(transfers.requestTransfer(transferRequest('today'))).resolves.toMatchObject({ created: true });
    await expect(
      transfers.requestTransfer({ ...monday, body: { ...monday.body, amount: '2.00' } }),
    ).rejects.toBeInstanceOf(TransferLimitError);
    await scheduled.cancel(first.movement.originId);
    await expect(
      transfers.requestTransfer({ ...monday, body: { ...monday.body, amount: '3.00' } }),
    ).resolves.toMatchObject({
      movement: { status: 'SCHEDULED' },
    });
  });

  it('takes an approval before the day, and still waits for the moment', async () => {
    const { transfers, approvals, sweeper, atTheBank } = await scheduling({ approvals: { requiredAbove: '0' } });
    const executeAt = at(WEDNESDAY_NOON + 30 * SECOND);
    const { movement } = await transfers.requestTransfer({ ...transferRequest('rent'), executeAt }, { by: OPERATOR });
    expect(movement.status).toBe('AWAITING_APPROVAL');
    const approved = await approvals.approve(movement.originId, APPROVER);
    expect(approved).toMatchObject({ status: 'SCHEDULED', schedule: { executeAt } });
    expect(await sweeper.sweep()).toMatchObject({ released: 0, sent: 0 });
    expect(atTheBank()).toEqual([]);
    fixture.clock.set(WEDNESDAY_NOON + 30 * SECOND);
    expect(await sweeper.sweep()).toMatchObject({ released: 1, sent: 1 });
    expect(atTheBank()).toEqual([movement.originId]);
  });

  it('answers the same originId and schedule with the stored transfer, and another schedule as a conflict', async () => {
    const { transfers } = await scheduling();
    const originId = (await transfers.allocateOriginId()) + 1;
    const request = { ...transferRequest('rent', { originId }), executeAt: '2026-12-28T09:00:00-03:00' };
    await transfers.requestTransfer(request);
    // The same moment with another offset is the same request.
    const replayed = await transfers.requestTransfer({ ...request, executeAt: '2026-12-28T12:00:00Z' });
    expect(replayed).toMatchObject({ created: false, movement: { originId, status: 'SCHEDULED' } });
    await expect(
      transfers.requestTransfer({ ...request, executeAt: undefined, executeOn: '2026-12-29' }),
    ).rejects.toBeInstanceOf(TransferConflictError);
  });
});
