import { transferRequest } from '@test-support/giro-harness';
import { validateTransferIntent } from '../domain';
import { MovementStore } from '../persistence';
import { describeEachEngine } from '../persistence/testing/test-engines';
import { transferServiceFixture } from './testing/transfer-service-fixture';
import { TransferValidationError } from './transfer.errors';

/** Records, in order, the name of every MovementStore method called from now on (the calls go through). */
function storeCalls(store: MovementStore): string[] {
  const calls: string[] = [];
  const methods = store as unknown as Record<string, (...args: unknown[]) => unknown>;
  for (const name of Object.getOwnPropertyNames(MovementStore.prototype)) {
    const method = methods[name];
    if (name === 'constructor' || typeof method !== 'function') continue;
    methods[name] = (...args) => {
      calls.push(name);
      return method.apply(store, args);
    };
  }
  return calls;
}

describeEachEngine('TransferService.requestTransfer', (engine) => {
  const { fixture, setup } = transferServiceFixture(engine);

  it('returns the movement as the create stored it, without reading it again', async () => {
    const { store, transfers, movements } = await setup();
    const reads = jest.spyOn(store, 'findByOriginId');
    const completed = await transfers.requestTransfer(transferRequest('rent'));
    const failed = await transfers.requestTransfer(transferRequest('rent [reject]', { amount: 5 }));
    expect(reads).not.toHaveBeenCalled();
    reads.mockRestore();
    expect(failed.movement).toMatchObject({ status: 'FAILED', cancellation: { amount: '5.00' } });
    for (const { movement } of [completed, failed]) {
      expect(movement.history.length).toBeGreaterThanOrEqual(2);
      expect(movement).toEqual(await movements.getMovement(movement.originId));
    }
  });

  it('replays the same originId and payload from one read of the movement', async () => {
    const { store, transfers, movements } = await setup();
    const request = transferRequest('rent', { originId: (await transfers.allocateOriginId()) + 1 });
    const created = await transfers.requestTransfer(request);
    const calls = storeCalls(store);
    const replayed = await transfers.requestTransfer(request);
    expect(calls).toEqual(['findByOriginId']); // the movement, its history and its cancellation: one read
    expect(replayed).toEqual({ created: false, movement: await movements.getMovement(created.movement.originId) });
    expect(fixture.bank.ledger.page().entries).toHaveLength(1);
  });

  it('reads the movement once when another caller stored the same originId first', async () => {
    const { store, transfers, movements } = await setup();
    const request = transferRequest('rent', { originId: (await transfers.allocateOriginId()) + 1 });
    const created = await transfers.requestTransfer(request);
    // As if the other caller's intent were committed just after this request looked for the originId.
    jest.spyOn(store, 'findByOriginId').mockResolvedValueOnce(null);
    const calls = storeCalls(store);
    const replayed = await transfers.requestTransfer(request);
    // payeeGate: the destination's one row, read before anything is stored (a blocked payee stores nothing).
    expect(calls).toEqual(['findByOriginId', 'payeeGate', 'recordIntent', 'findByOriginId']);
    expect(replayed).toEqual({ created: false, movement: await movements.getMovement(created.movement.originId) });
    expect(fixture.bank.ledger.page().entries).toHaveLength(1);
  });

  it('stores the intent as validated, with its originId (allocated or given) last', async () => {
    const { store, transfers } = await setup();
    const given = (await transfers.allocateOriginId()) + 500;
    for (const request of [transferRequest('rent'), transferRequest('host', { originId: given })]) {
      const { movement } = await transfers.requestTransfer(request);
      const validated = validateTransferIntent(request);
      if (!validated.ok) throw new Error('the request is valid');
      const stored = await store.findByOriginId(movement.originId);
      // Compared as JSON text: the stored intent keeps the order of the fields too.
      expect(JSON.stringify(stored?.intent)).toBe(JSON.stringify({ ...validated.intent, originId: movement.originId }));
    }
  });

  it('takes what validateRequest returned as it is: validated once, frozen', async () => {
    const { transfers } = await setup();
    expect(() => transfers.validateRequest({ ...transferRequest('rent'), extra: 1 })).toThrow(TransferValidationError);
    const transfer = transfers.validateRequest(transferRequest('rent', { amount: 7 }));
    expect(Object.isFrozen(transfer) && Object.isFrozen(transfer.to) && Object.isFrozen(transfer.to.owner)).toBe(true);
    // Validated again, the flat transfer would be refused: it is not a transfer request (`amount` outside `body`…).
    const { movement } = await transfers.requestTransfer(transfer);
    expect(movement).toMatchObject({ amount: '7.00', description: 'rent' });
    await expect(transfers.requestTransfer({ ...transfer })).rejects.toThrow(TransferValidationError);
  });

  it('skips an originId of its block that a host has already used as its own', async () => {
    const { transfers, movements } = await setup();
    const reserved = await transfers.allocateOriginId();
    // The host guesses the next id of giro's block and sends its own transfer with it.
    const hosts = await transfers.requestTransfer(transferRequest('host', { originId: reserved + 1, amount: 10 }));
    expect(hosts).toMatchObject({ created: true, movement: { originId: reserved + 1 } });
    const mine = await transfers.requestTransfer(transferRequest('rent', { amount: 20 }));
    expect(mine).toMatchObject({ created: true, movement: { originId: reserved + 2, amount: '20.00' } });
    expect((await movements.getMovement(reserved + 1)).amount).toBe('10.00');
    expect(fixture.bank.ledger.page().entries.map((entry) => entry.originId)).toEqual([reserved + 1, reserved + 2]);
  });
});
