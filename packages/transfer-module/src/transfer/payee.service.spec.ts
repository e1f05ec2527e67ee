import { transferRequest } from '@test-support/giro-harness';
import { PayeeNotFoundError } from '../persistence';
import { describeEachEngine } from '../persistence/testing/test-engines';
import { PayeeService } from './payee.service';
import { transferServiceFixture } from './testing/transfer-service-fixture';
import { PayeeBlockedError, TransferValidationError } from './transfer.errors';

// The payee book through the services, against the sandbox bank answering at once (the creation's answer is
// final): the holder learned from a completed transfer, an answer naming another CUIT raised as a
// counterparty_mismatch anomaly with the status still the bank's, and a blocked account refused by
// TransferService with nothing stored or sent.

const CHECKER = { keyId: 'k_checker', name: 'checker' };

describeEachEngine('PayeeService and the payee book', (engine) => {
  const { fixture, setup } = transferServiceFixture(engine);

  async function services() {
    fixture.bank.configure({ timings: { createdMs: 0, inProgressMs: 0 } });
    const built = await setup();
    return { ...built, payees: new PayeeService(built.store) };
  }

  it('shows the holder the bank named, and raises another CUIT as a counterparty_mismatch anomaly', async () => {
    const { transfers, payees } = await services();
    const paid = await transfers.requestTransfer(transferRequest('alquiler'));
    expect(paid.movement.status).toBe('COMPLETED');
    expect(paid.movement.anomalies).toEqual([]);
    const { address, owner } = paid.movement.to;
    const learned = await payees.getPayee(address);
    expect(learned).toMatchObject({
      holder: { personId: owner.personId, name: paid.movement.bank?.counterparty?.personName },
      holderDiffers: false,
      completed: { count: 1, amount: '1234.50' },
    });

    const other = await transfers.requestTransfer(transferRequest('alquiler [other-payee]'));
    expect(other.movement.status).toBe('COMPLETED');
    const reported = other.movement.bank?.counterparty?.personId;
    expect(reported).not.toBe(owner.personId);
    expect(other.movement.anomalies).toEqual([
      expect.objectContaining({
        kind: 'counterparty_mismatch',
        status: 'COMPLETED',
        claimed: 'COMPLETED',
        reason: `the bank's answer names another counterparty: the CUIT ${reported} (the transfer asked for ${owner.personId})`,
      }),
    ]);
    const changed = await payees.getPayee(address);
    expect(changed).toMatchObject({
      holder: { personId: reported },
      holderDiffers: true,
      previousNames: [learned.holder?.name],
      completed: { count: 2, amount: '2469.00' },
    });
    expect((await payees.searchPayees({ q: owner.personId }, { limit: 10 })).items).toEqual([changed]);
  });

  it('refuses a transfer to a blocked account, storing and sending nothing, until it is unblocked', async () => {
    const { transfers, payees, store } = await services();
    const request = transferRequest('alquiler', { originId: 4242 });
    const blocked = await payees.blockPayee(request.to.address, CHECKER);
    expect(blocked.blocked).toMatchObject({ by: CHECKER });
    await expect(transfers.requestTransfer(request)).rejects.toBeInstanceOf(PayeeBlockedError);
    expect(await store.findByOriginId(4242)).toBeNull();
    expect(fixture.bank.ledger.entry(4242)).toBeUndefined();
    const [preview] = await transfers.previewRequests([transfers.validateRequest(request)]);
    expect(preview).toBeInstanceOf(PayeeBlockedError);
    await payees.unblockPayee(request.to.address, CHECKER);
    expect((await transfers.requestTransfer(request)).movement.status).toBe('COMPLETED');
  });

  it('names the bad field of an entry, and refuses what the book does not have', async () => {
    const { payees } = await services();
    const error = await payees
      .addPayee({ address: '123', personId: '20123456789', label: '', extra: 1 })
      .catch((e) => e);
    expect(error).toBeInstanceOf(TransferValidationError);
    expect((error as TransferValidationError).violations.map((v) => [v.field, v.rule])).toEqual([
      ['extra', 'unknown_field'],
      ['address', 'cbu_cvu'],
      ['personId', 'cuit'],
      ['label', 'label'],
    ]);
    const address = transferRequest('x').to.address;
    await expect(payees.getPayee(address)).rejects.toBeInstanceOf(PayeeNotFoundError);
    await expect(payees.unblockPayee(address, CHECKER)).rejects.toBeInstanceOf(PayeeNotFoundError);
  });
});
