import type { SandboxBank } from '@giro/sandbox-bank';
import { giroOptions, manualClock, startTestSandbox, transferRequest } from '@test-support/giro-harness';
import { BankClient } from '../bank';
import { type ManualClock, validateTransferIntent } from '../domain';
import { resolveTransferModuleOptions } from '../module/transfer-module.options';
import { createTransferRuntime } from '../module/transfer-runtime';
import { describeEachEngine } from '../persistence/testing/test-engines';
import { TransferService } from './transfer.service';

const silent = { log: () => undefined, warn: () => undefined, error: () => undefined };

describeEachEngine('TransferService.requestTransfer', (engine) => {
  let bank: SandboxBank;
  let clock: ManualClock;
  let client: BankClient | undefined;

  beforeEach(async () => {
    clock = manualClock();
    bank = await startTestSandbox(clock);
  });
  afterEach(async () => {
    await client?.close();
    await bank.close();
  });

  async function setup() {
    const dataSource = await (await engine.createDatabase()).connectMigrated();
    const options = resolveTransferModuleOptions(await giroOptions(bank, clock));
    client = new BankClient(options.bank);
    const runtime = createTransferRuntime({ options, dataSource, bank: client, logger: silent });
    return { runtime, transfers: new TransferService(runtime) };
  }

  it('returns the movement as the create stored it, without reading it again', async () => {
    const { runtime, transfers } = await setup();
    const reads = jest.spyOn(runtime.store, 'findByOriginId');
    const completed = await transfers.requestTransfer(transferRequest('rent'));
    const failed = await transfers.requestTransfer(transferRequest('rent [reject]', { amount: 5 }));
    expect(reads).not.toHaveBeenCalled();
    reads.mockRestore();
    expect(failed.movement).toMatchObject({ status: 'FAILED', cancellation: { amount: '5.00' } });
    for (const { movement } of [completed, failed]) {
      expect(movement.history.length).toBeGreaterThanOrEqual(2);
      expect(movement).toEqual(await transfers.getMovement(movement.originId));
    }
  });

  it('stores the intent as validated, with its originId (allocated or given) last', async () => {
    const { runtime, transfers } = await setup();
    const given = (await transfers.allocateOriginId()) + 500;
    for (const request of [transferRequest('rent'), transferRequest('host', { originId: given })]) {
      const { movement } = await transfers.requestTransfer(request);
      const validated = validateTransferIntent(request);
      if (!validated.ok) throw new Error('the request is valid');
      const stored = await runtime.store.findByOriginId(movement.originId);
      // Compared as JSON text: the stored intent keeps the order of the fields too.
      expect(JSON.stringify(stored?.intent)).toBe(JSON.stringify({ ...validated.intent, originId: movement.originId }));
    }
  });

  it('skips an originId of its block that a host has already used as its own', async () => {
    const { transfers } = await setup();
    const reserved = await transfers.allocateOriginId();
    // The host guesses the next id of giro's block and sends its own transfer with it.
    const hosts = await transfers.requestTransfer(transferRequest('host', { originId: reserved + 1, amount: 10 }));
    expect(hosts).toMatchObject({ created: true, movement: { originId: reserved + 1 } });
    const mine = await transfers.requestTransfer(transferRequest('rent', { amount: 20 }));
    expect(mine).toMatchObject({ created: true, movement: { originId: reserved + 2, amount: '20.00' } });
    expect((await transfers.getMovement(reserved + 1)).amount).toBe('10.00');
    expect(bank.ledger.page().entries.map((entry) => entry.originId)).toEqual([reserved + 1, reserved + 2]);
  });
});
