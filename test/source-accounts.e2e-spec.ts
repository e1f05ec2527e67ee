import type { SandboxBank } from '@giro/sandbox-bank';
import { completeCbuCvu, SubAccountService, TransferValidationError } from '@giro/transfer-module';
import { type ManualClock, sampleTransferRequest } from '@giro/transfer-module/testing';
import { describeOnEachEngine } from './support/engines';
import { type Giro, giroOptions, manualClock, startGiro, startTestSandbox } from './support/giro-harness';

// giro with its source accounts configured, against the sandbox bank: a transfer from another account, or from
// one of them by another holder, is refused naming the field, and neither stored nor sent (the sandbox's ledger
// stays empty); one from a source account goes out.

describeOnEachEngine('source accounts', (engine) => {
  let clock: ManualClock;
  let bank: SandboxBank;
  let giro: Giro;
  const own = sampleTransferRequest().from;

  beforeEach(async () => {
    clock = manualClock();
    bank = await startTestSandbox(clock);
    giro = await startGiro(
      await giroOptions(bank, clock, {
        databaseUrl: await engine.createDatabaseUrl(),
        sourceAccounts: [{ address: own.address, ownerPersonId: own.owner.personId }],
      }),
    );
  });
  afterEach(async () => {
    await giro.close();
    await bank.close();
  });

  const refusal = async (request: unknown) => {
    const error = await giro.transfers.requestTransfer(request).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TransferValidationError);
    return (error as TransferValidationError).violations;
  };

  it('refuses another account or another holder, naming the field, storing and sending nothing', async () => {
    const otherCvu = completeCbuCvu('0000003', '1000000000999');
    const fromOtherCvu = await refusal(
      sampleTransferRequest({ originId: 501, from: { address: otherCvu, personId: own.owner.personId } }),
    );
    expect(fromOtherCvu).toEqual([
      {
        field: 'from.address',
        rule: 'source_account',
        params: { cvu: true },
        message: expect.stringMatching(/reserved to payment service providers registered with the central bank/),
      },
    ]);
    const otherHolder = await refusal(
      sampleTransferRequest({ originId: 502, from: { address: own.address, personId: '20123456786' } }),
    );
    expect(otherHolder.map((v) => v.field)).toEqual(['from.owner.personId']);
    expect(() =>
      giro.transfers.validateRequest(
        sampleTransferRequest({ from: { address: otherCvu, personId: own.owner.personId } }),
      ),
    ).toThrow(TransferValidationError);

    expect(bank.ledger.size).toBe(0);
    expect((await giro.movements.listMovements({}, { limit: 10 })).items).toEqual([]);

    const { movement } = await giro.transfers.requestTransfer(sampleTransferRequest({ originId: 503 }));
    expect(movement.status).toBe('CREATED');
    expect(bank.ledger.entry(503)).toBeDefined();
  });
});

describeOnEachEngine('PSP mode: client sub-accounts', (engine) => {
  let clock: ManualClock;
  let bank: SandboxBank;
  let giro: Giro;
  const own = sampleTransferRequest().from;
  const clientCvu = completeCbuCvu('0000003', '2000000000005');
  const holder = '20123456786';

  beforeEach(async () => {
    clock = manualClock();
    bank = await startTestSandbox(clock);
    giro = await startGiro(
      await giroOptions(bank, clock, {
        databaseUrl: await engine.createDatabaseUrl(),
        sourceAccounts: [{ address: own.address, ownerPersonId: own.owner.personId }],
        psp: true,
      }),
    );
  });
  afterEach(async () => {
    await giro.close();
    await bank.close();
  });

  const fromClient = (originId: number, personId = holder) =>
    sampleTransferRequest({ originId, from: { address: clientCvu, personId } });
  const fieldsOf = async (request: unknown) => {
    const error = await giro.transfers.requestTransfer(request).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TransferValidationError);
    return (error as TransferValidationError).violations.map((v) => v.field);
  };

  it('sends from a registered, enabled sub-account of its holder only', async () => {
    const subAccounts = giro.app.get(SubAccountService);
    expect(await fieldsOf(fromClient(601))).toEqual(['from.address']);
    await subAccounts.registerSubAccount({ address: clientCvu, ownerPersonId: holder, ownerName: 'Ana' });
    expect(await fieldsOf(fromClient(602, own.owner.personId))).toEqual(['from.owner.personId']);
    expect(bank.ledger.size).toBe(0);

    const { movement } = await giro.transfers.requestTransfer(fromClient(603));
    expect(movement).toMatchObject({ status: 'CREATED', from: { address: clientCvu } });
    expect(movement.bank?.thisSubAccount?.accountRouting?.address).toBe(clientCvu);

    await subAccounts.disableSubAccount(clientCvu);
    expect(await fieldsOf(fromClient(604))).toEqual(['from.address']);
    expect(bank.ledger.page().entries.map((entry) => entry.originId)).toEqual([603]);
  });
});
