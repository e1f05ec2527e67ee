import { transferRequest } from '@test-support/giro-harness';
import { completeCbuCvu, completeCuit } from '../domain';
import type { ResolvedTransferOptions } from '../options';
import { describeEachEngine } from '../persistence/testing/test-engines';
import { transferServiceFixture } from './testing/transfer-service-fixture';
import {
  ScheduleRefusedError,
  TransferConflictError,
  TransferLimitError,
  TransferValidationError,
} from './transfer.errors';
import { TransferOverviewService } from './transfer-overview.service';

const OWN = transferRequest('own').from;
const CLIENT = { address: completeCbuCvu('0000003', '2000000000005'), personId: completeCuit('2012345678') ?? '' };
const STRANGER = { address: completeCbuCvu('0000003', '2000000000099'), personId: CLIENT.personId };

describeEachEngine('TransferService previews', (engine) => {
  const { fixture, setup } = transferServiceFixture(engine);

  async function pspService() {
    const service = await setup({
      psp: true,
      sourceAccounts: [{ address: OWN.address, ownerPersonId: OWN.owner.personId }],
      limits: { default: { perTransfer: '1000000.00' } },
    });
    await service.store.registerSubAccount({
      address: CLIENT.address,
      ownerPersonId: CLIENT.personId,
      ownerName: null,
    });
    return service;
  }

  it('answers each row in order: a sender that is not a client sub-account, a limit passed, or nothing', async () => {
    const { transfers } = await pspService();
    const rows = [
      transferRequest('client', { from: CLIENT }),
      transferRequest('stranger', { from: STRANGER }),
      transferRequest('own, within the limit', { amount: '999999.99' }),
      transferRequest('own, past the limit', { amount: '1000000.01' }),
    ].map((row) => transfers.validateRequest(row));
    const answers = await transfers.previewRequests(rows);
    expect(answers[0]).toBeUndefined();
    expect(answers[1]).toBeInstanceOf(TransferValidationError);
    expect((answers[1] as TransferValidationError).violations).toEqual([
      expect.objectContaining({ field: 'from.address', rule: 'source_account' }),
    ]);
    expect(answers[2]).toBeUndefined();
    expect(answers[3]).toBeInstanceOf(TransferLimitError);
    expect(fixture.bank.ledger.page().entries).toEqual([]);
  });

  it('reads each sender once, however many rows it sends, and never for the entity’s own accounts', async () => {
    const { store, transfers } = await pspService();
    const reads = jest.spyOn(store, 'findSubAccount');
    const rows = [CLIENT, STRANGER, CLIENT, CLIENT, STRANGER, undefined].map((from, index) =>
      transfers.validateRequest(transferRequest(`row ${index}`, { ...(from && { from }) })),
    );
    const answers = await transfers.previewRequests(rows);
    expect(answers.map((answer) => answer?.constructor.name)).toEqual([
      undefined,
      'TransferValidationError',
      undefined,
      undefined,
      'TransferValidationError',
      undefined,
    ]);
    expect(reads.mock.calls.map(([address]) => address)).toEqual([CLIENT.address, STRANGER.address]);
  });

  it('answers a stored originId as requestTransfer would, sending and storing nothing', async () => {
    const { transfers, movements } = await setup();
    const originId = (await transfers.allocateOriginId()) + 1;
    const sent = await transfers.requestTransfer(transferRequest('alquiler', { originId }));
    const same = transfers.validateRequest(transferRequest('alquiler', { originId }));
    const other = transfers.validateRequest(transferRequest('alquiler', { originId, amount: 1 }));
    const free = transfers.validateRequest(transferRequest('giro test transfer', { originId: originId + 1 }));
    const calls = fixture.bank.ledger.page().entries.length;

    expect(await transfers.previewReplay(same)).toEqual(await movements.getMovement(sent.movement.originId));
    expect(await transfers.previewReplay(other)).toEqual(new TransferConflictError(originId));
    expect(await transfers.previewReplay(free)).toBeUndefined();
    expect(
      await transfers.previewReplay(transfers.validateRequest(transferRequest('giro test transfer'))),
    ).toBeUndefined();
    expect(fixture.bank.ledger.page().entries).toHaveLength(calls);
    await expect(movements.getMovement(originId + 1)).rejects.toThrow(/not found|no movement/i);
  });
  it("says when a scheduled request would be sent, and the overview counts today's and tomorrow's", async () => {
    const { transfers, store } = await setup();
    // Thursday 24 December 2026, noon in Buenos Aires: tomorrow is Christmas.
    fixture.clock.set(Date.parse('2026-12-24T15:00:00Z'));
    const preview = (schedule: object) =>
      transfers.previewExecution(transfers.validateRequest({ ...transferRequest('sueldo'), ...schedule }));
    expect(preview({ executeOn: '2026-12-25' })).toEqual(new Date('2026-12-28T12:00:00.000Z'));
    expect(preview({ executeOn: '2026-12-23' })).toBeInstanceOf(ScheduleRefusedError);
    expect((preview({ executeOn: '2026-12-23' }) as ScheduleRefusedError).violations).toEqual([
      expect.objectContaining({ field: 'executeOn', rule: 'past' }),
    ]);
    // A moment already past goes at once: no schedule.
    expect(preview({ executeAt: '2026-12-24T10:00:00Z' })).toBeUndefined();
    expect(preview({})).toBeUndefined();

    for (const [amount, executeAt] of [
      ['100.00', '2026-12-24T20:00:00Z'],
      ['250.50', '2026-12-25T13:00:00Z'],
      ['0.50', '2026-12-25T13:30:00Z'],
      ['999.00', '2026-12-26T13:00:00Z'],
    ]) {
      const { movement } = await transfers.requestTransfer({ ...transferRequest('sueldo', { amount }), executeAt });
      expect(movement.status).toBe('SCHEDULED');
    }
    const overview = new TransferOverviewService({ clock: fixture.clock } as unknown as ResolvedTransferOptions, store);
    expect((await overview.overview()).scheduled).toEqual({
      today: { day: '2026-12-24', totals: [{ currencyId: '032', amount: '100.00', count: 1 }] },
      tomorrow: { day: '2026-12-25', totals: [{ currencyId: '032', amount: '251.00', count: 2 }] },
    });
    expect(fixture.bank.ledger.page().entries).toEqual([]);
  });
  it('counts a scheduled row against the daily limit of its execution day, not of today', async () => {
    const { transfers } = await setup({ limits: { default: { dailyAmount: '1000.00' } } });
    fixture.clock.set(Date.parse('2026-12-24T15:00:00Z'));
    // Today's 900 is used; a row for Monday the 28th has that day's 1000 to itself.
    const { movement } = await transfers.requestTransfer(transferRequest('hoy', { amount: '900.00' }));
    expect(movement.status).not.toBe('SCHEDULED');
    const rows = [
      { ...transferRequest('lunes', { amount: '800.00' }), executeOn: '2026-12-25' },
      transferRequest('hoy otra vez', { amount: '800.00' }),
      { ...transferRequest('lunes otra vez', { amount: '300.00' }), executeAt: '2026-12-28T15:00:00Z' },
    ].map((row) => transfers.validateRequest(row));
    const answers = await transfers.previewRequests(rows);
    expect(answers.map((answer) => answer?.constructor.name)).toEqual([
      undefined,
      'TransferLimitError',
      'TransferLimitError',
    ]);
  });
});
