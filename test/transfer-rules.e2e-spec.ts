import type { SandboxBank } from '@giro/sandbox-bank';
import { TransferValidationError } from '@giro/transfer-module';
import { type ManualClock, sampleTransferRequest } from '@giro/transfer-module/testing';
import { describeOnEachEngine } from './support/engines';
import { type Giro, giroOptions, manualClock, startGiro, startTestSandbox } from './support/giro-harness';

// giro with its transfer rules configured, against the sandbox bank: a currency or a concept outside them is
// refused naming the field and the accepted values, and neither stored nor sent (the sandbox's ledger stays
// empty); one within them goes out.

describeOnEachEngine('transfer rules', (engine) => {
  let clock: ManualClock;
  let bank: SandboxBank;
  let giro: Giro;

  beforeEach(async () => {
    clock = manualClock();
    bank = await startTestSandbox(clock);
    giro = await startGiro(
      await giroOptions(bank, clock, {
        databaseUrl: await engine.createDatabaseUrl(),
        transferRules: { currencies: ['032'], concepts: ['VAR', 'ALQ'] },
      }),
    );
  });
  afterEach(async () => {
    await giro.close();
    await bank.close();
  });

  const withBody = (originId: number, body: Record<string, unknown>) => {
    const request = sampleTransferRequest({ originId });
    return { ...request, body: { ...request.body, ...body } };
  };
  const refusal = async (request: unknown) => {
    const error = await giro.transfers.requestTransfer(request).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TransferValidationError);
    return (error as TransferValidationError).violations;
  };

  it('refuses a currency or a concept it does not accept, storing and sending nothing', async () => {
    expect(await refusal(withBody(701, { currencyId: '840' }))).toEqual([
      {
        field: 'body.currencyId',
        rule: 'currency',
        params: { allowed: ['032'], value: '840' },
        message: 'must be one of 032, got "840"',
      },
    ]);
    expect(await refusal(withBody(702, { concept: 'HON' }))).toEqual([
      {
        field: 'body.concept',
        rule: 'concept',
        params: { allowed: ['VAR', 'ALQ'], value: 'HON' },
        message: 'must be one of VAR, ALQ, got "HON"',
      },
    ]);
    expect(bank.ledger.size).toBe(0);
    expect((await giro.movements.listMovements({}, { limit: 10 })).items).toEqual([]);

    const { movement } = await giro.transfers.requestTransfer(withBody(703, { concept: 'ALQ' }));
    expect(movement).toMatchObject({ status: 'CREATED', concept: 'ALQ', currencyId: '032' });
    expect(bank.ledger.entry(703)).toBeDefined();
  });
});
