import { transferRequest } from '@test-support/giro-harness';
import { completeCbuCvu, completeCuit } from '../domain';
import { describeEachEngine } from '../persistence/testing/test-engines';
import { transferServiceFixture } from './testing/transfer-service-fixture';
import { TransferConflictError, TransferLimitError, TransferValidationError } from './transfer.errors';

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
});
