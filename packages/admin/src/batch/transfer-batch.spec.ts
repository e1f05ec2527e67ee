import {
  type MovementView,
  ScheduleRefusedError,
  TransferConflictError,
  type TransferInput,
  TransferLimitError,
  TransferValidationError,
  validateTransferIntent,
} from '@giro/transfer-module';
import { readBatchCsv } from './batch-csv';
import { readBatchJson } from './batch-json';
import { BATCH_CONCURRENCY, BatchInterruptedError, runTransferBatch } from './transfer-batch';

// The batch's rules row by row, against a TransferService stand-in that validates with the domain's real rules
// and keeps what it creates in a map (the route against giro itself: test/admin-transfer-batch.e2e-spec.ts).

const HEADER = 'originId,fromAddress,fromCuit,toAddress,toCuit,currencyId,amount,description';
const row = (originId: string, amount = '100.00', description = 'payout') =>
  `${originId},0000003110000000000175,30712345671,2850590994009004181356,20123456786,032,${amount},${description}`;
const csv = (...rows: string[]) => readBatchCsv([HEADER, ...rows].join('\n'));
const by = { keyId: 'k1', name: 'ops' };

/**
 * Creates what it is asked to; a daily limit of 5000.00 over what it created refuses the rest; the description
 * "outage" finds the database out, "no client" names a `from` that is no registered client sub-account.
 */
function transfersStandIn() {
  const stored = new Map<number, TransferInput>();
  const requested: number[] = [];
  const DAILY_CENTS = 500_000;
  const cents = (transfer: TransferInput) => Math.round(Number(transfer.amount) * 100);
  const usedCents = () => [...stored.values()].reduce((sum, transfer) => sum + cents(transfer), 0);
  const overLimit = () =>
    new TransferLimitError([
      { field: 'from.address', rule: 'daily_amount', params: {}, message: 'would pass the daily amount' },
    ]);
  const noClient = () =>
    new TransferValidationError([
      { field: 'from.address', rule: 'sub_account', params: {}, message: 'is no client sub-account' },
    ]);
  const view = (transfer: TransferInput) => ({ ...transfer, status: 'PENDING' }) as unknown as MovementView;
  return {
    stored,
    requested,
    validateRequest(input: unknown): TransferInput {
      const result = validateTransferIntent(input);
      if (!result.ok) throw new TransferValidationError(result.violations);
      return result.intent;
    },
    async requestTransfer(transfer: TransferInput) {
      const originId = transfer.originId as number;
      requested.push(originId);
      if (transfer.description === 'outage')
        throw Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });
      const existing = stored.get(originId);
      if (existing) {
        if (JSON.stringify(existing) !== JSON.stringify(transfer)) throw new TransferConflictError(originId);
        return { movement: view(existing), created: false };
      }
      if (transfer.description === 'no client') throw noClient();
      if (usedCents() + cents(transfer) > DAILY_CENTS) throw overLimit();
      stored.set(originId, transfer);
      return { movement: view(transfer), created: true };
    },
    async previewRequests(transfers: readonly TransferInput[]) {
      let used = usedCents();
      return transfers.map((transfer) => {
        if (transfer.description === 'no client') return noClient();
        if (used + cents(transfer) > DAILY_CENTS) return overLimit();
        used += cents(transfer);
        return undefined;
      });
    },
    // Every account here was paid before: no row is a first payment.
    async previewNewPayees(transfers: readonly TransferInput[]) {
      return transfers.map(() => false);
    },
    // A day before 2026 is past; any other is sent that day at noon UTC (no calendar here: the module's own).
    previewExecution(transfer: TransferInput) {
      const execution = transfer.execution;
      if (execution === undefined) return undefined;
      if (!('executeOn' in execution)) return new Date(execution.executeAt);
      if (execution.executeOn < '2026-01-01') {
        return new ScheduleRefusedError([
          { field: 'executeOn', rule: 'past', params: { today: '2026-01-01' }, message: 'must be today or later' },
        ]);
      }
      return new Date(`${execution.executeOn}T12:00:00.000Z`);
    },
    async previewReplay(transfer: TransferInput) {
      const originId = transfer.originId as number;
      const existing = stored.get(originId);
      if (!existing) return undefined;
      if (JSON.stringify(existing) !== JSON.stringify(transfer)) return new TransferConflictError(originId);
      return view(existing);
    },
  };
}

describe('runTransferBatch', () => {
  it('creates the valid rows in order and reports each invalid one by its line, column and rule', async () => {
    const transfers = transfersStandIn();
    const result = await runTransferBatch(transfers, csv(row('1'), row('2', '"12,500"'), row('3')), {
      dryRun: false,
      by,
    });
    expect(result).toEqual({
      dryRun: false,
      rows: [
        { row: 2, originId: 1, outcome: 'created', status: 'PENDING' },
        {
          row: 3,
          originId: 2,
          outcome: 'invalid',
          violations: [expect.objectContaining({ field: 'amount', rule: 'ambiguous_amount' })],
        },
        { row: 4, originId: 3, outcome: 'created', status: 'PENDING' },
      ],
      summary: { total: 3, valid: 2, invalid: 1, created: 2, replayed: 0, conflicts: 0, refused: 0 },
    });
    expect(transfers.requested).toEqual([1, 3]);
  });

  it('replays a row stored with the same payload and reports another payload as a conflict', async () => {
    const transfers = transfersStandIn();
    await runTransferBatch(transfers, csv(row('1'), row('2')), { dryRun: false, by });
    const again = await runTransferBatch(transfers, csv(row('1'), row('2', '200.00'), row('3')), { dryRun: false, by });
    expect(again.rows.map(({ originId, outcome }) => [originId, outcome])).toEqual([
      [1, 'replayed'],
      [2, 'conflict'],
      [3, 'created'],
    ]);
    expect(again.summary).toMatchObject({ created: 1, replayed: 1, conflicts: 1 });
  });

  it('in a dry run, says what would happen and requests nothing', async () => {
    const transfers = transfersStandIn();
    await runTransferBatch(transfers, csv(row('1'), row('2')), { dryRun: false, by });
    transfers.requested.length = 0;
    const dry = await runTransferBatch(transfers, csv(row('1'), row('2', '200.00'), row('3'), row('x')), {
      dryRun: true,
      by,
    });
    const transfer = expect.any(Object);
    expect(dry.rows).toEqual([
      { row: 2, originId: 1, outcome: 'exists', status: 'PENDING', transfer },
      { row: 3, originId: 2, outcome: 'conflict', transfer },
      { row: 4, originId: 3, outcome: 'valid', transfer },
      { row: 5, originId: null, outcome: 'invalid', violations: [expect.objectContaining({ field: 'originId' })] },
    ]);
    expect(dry.summary).toEqual({ total: 4, valid: 3, invalid: 1, created: 0, replayed: 1, conflicts: 1, refused: 0 });
    expect(transfers.requested).toEqual([]);
    expect([...transfers.stored.keys()]).toEqual([1, 2]);
  });

  it('in a dry run, reports the rows the store would refuse: no client sub-account, or a limit after the rows above', async () => {
    const transfers = transfersStandIn();
    await runTransferBatch(transfers, csv(row('1', '1000.00')), { dryRun: false, by });
    const file = csv(row('1', '1000.00'), row('2', '3000.00'), row('3', '50.00', 'no client'), row('4', '1500.00'));
    const dry = await runTransferBatch(transfers, file, { dryRun: true, by });
    const transfer = expect.any(Object);
    expect(dry.rows).toEqual([
      { row: 2, originId: 1, outcome: 'exists', status: 'PENDING', transfer },
      { row: 3, originId: 2, outcome: 'valid', transfer },
      {
        row: 4,
        originId: 3,
        outcome: 'invalid',
        violations: [{ field: 'fromAddress', rule: 'sub_account', params: {}, message: 'is no client sub-account' }],
        transfer,
      },
      // 1 000 used, 3 000 more above it: 1 500 would pass the day's 5 000.
      {
        row: 5,
        originId: 4,
        transfer,
        outcome: 'refused',
        violations: [
          { field: 'fromAddress', rule: 'daily_amount', params: {}, message: 'would pass the daily amount' },
        ],
      },
    ]);
    expect(dry.summary).toMatchObject({ valid: 3, invalid: 1, refused: 1 });
    // The run agrees with its preview.
    const run = await runTransferBatch(transfers, file, { dryRun: false, by });
    expect(run.rows.map((result) => result.outcome)).toEqual(['replayed', 'created', 'invalid', 'refused']);
  });

  it('in a dry run, shows each row’s money as read and adds up the rows it would create, per source account', async () => {
    const transfers = transfersStandIn();
    // Sent the other way, so from another source account.
    const other = (originId: string, amount: string) =>
      `${originId},2850590994009004181356,20123456786,0000003110000000000175,30712345671,032,${amount},payout`;
    const file = csv(row('1', '"1.500,00"'), row('2', '"$ 2.500,50"'), other('3', '"0,01"'), row('4', '"12,500"'));
    const dry = await runTransferBatch(transfers, file, { dryRun: true, by });
    expect(dry.rows[1].transfer).toEqual({
      fromAddress: '0000003110000000000175',
      fromCuit: '30712345671',
      toAddress: '2850590994009004181356',
      toCuit: '20123456786',
      currencyId: '032',
      amount: '2500.50',
      description: 'payout',
      concept: 'VAR',
    });
    expect(dry.rows[3]).not.toHaveProperty('transfer');
    expect(dry.totals).toEqual({
      perSource: [
        { fromAddress: '0000003110000000000175', currencyId: '032', count: 2, amount: '4000.50' },
        { fromAddress: '2850590994009004181356', currencyId: '032', count: 1, amount: '0.01' },
      ],
      overall: [{ currencyId: '032', count: 3, amount: '4000.51' }],
    });
    const run = await runTransferBatch(transfers, file, { dryRun: false, by });
    expect(run).not.toHaveProperty('totals');
    expect(run.rows[0]).not.toHaveProperty('transfer');
  });

  it('in a dry run, says when each scheduled row would be sent; a day that cannot be kept is the row’s violation', async () => {
    const transfers = transfersStandIn();
    const file = readBatchCsv(
      [`${HEADER},fechaEjecucion`, `${row('1')},28/12/2026`, `${row('2')},2025-12-31`, `${row('3')},`].join('\n'),
    );
    const dry = await runTransferBatch(transfers, file, { dryRun: true, by });
    expect(dry.rows[0].transfer?.schedule).toEqual({
      executeAt: '2026-12-28T12:00:00.000Z',
      requested: { executeOn: '2026-12-28' },
    });
    expect(dry.rows[1]).toMatchObject({
      row: 3,
      outcome: 'invalid',
      violations: [{ field: 'fechaEjecucion', rule: 'past', params: { today: '2026-01-01' } }],
    });
    expect(dry.rows[2].transfer).not.toHaveProperty('schedule');
    const run = await runTransferBatch(transfers, file, { dryRun: false, by });
    expect(run.rows.map((result) => result.outcome)).toEqual(['created', 'invalid', 'created']);
    expect(transfers.stored.get(1)?.execution).toEqual({ executeOn: '2026-12-28' });
  });

  it('makes a repeated originId the later row’s violation, and requires an originId in a batch', async () => {
    const transfers = transfersStandIn();
    const result = await runTransferBatch(transfers, csv(row('1'), row(''), row('1', '5.00')), { dryRun: false, by });
    expect(result.rows).toMatchObject([
      { row: 2, originId: 1, outcome: 'created', status: 'PENDING' },
      {
        row: 3,
        originId: null,
        outcome: 'invalid',
        violations: [{ field: 'originId', rule: 'required', message: expect.stringContaining('required in a batch') }],
      },
      {
        row: 4,
        originId: 1,
        outcome: 'invalid',
        violations: [{ field: 'originId', rule: 'unique', message: 'repeats originId 1 of row 2' }],
      },
    ]);
    expect(transfers.requested).toEqual([1]);
  });

  it('reports a row a limit refuses with its violation, and goes on with the next', async () => {
    const transfers = transfersStandIn();
    const result = await runTransferBatch(transfers, csv(row('1', '9000.00'), row('2')), { dryRun: false, by });
    expect(result.rows).toEqual([
      {
        row: 2,
        originId: 1,
        outcome: 'refused',
        violations: [
          { field: 'fromAddress', rule: 'daily_amount', params: {}, message: 'would pass the daily amount' },
        ],
      },
      { row: 3, originId: 2, outcome: 'created', status: 'PENDING' },
    ]);
    expect(result.summary).toMatchObject({ valid: 2, refused: 1, created: 1 });
  });

  it('names a JSON row by its index + 1 and its fields by the request’s paths', async () => {
    const transfers = transfersStandIn();
    const request = validRequest();
    const result = await runTransferBatch(
      transfers,
      readBatchJson([request, { ...request, originId: 9, body: { ...request.body, amount: '-1' } }]),
      { dryRun: false, by },
    );
    expect(result.rows).toEqual([
      { row: 1, originId: 8, outcome: 'created', status: 'PENDING' },
      { row: 2, originId: 9, outcome: 'invalid', violations: [expect.objectContaining({ field: 'body.amount' })] },
    ]);
  });

  it('stops at a database outage once the rows in flight settle, naming the first row it stopped', async () => {
    const transfers = transfersStandIn();
    const requestTransfer = transfers.requestTransfer.bind(transfers);
    // Every other row takes a while at the bank: the outage is found while the first eight are under way.
    transfers.requestTransfer = async (transfer: TransferInput) => {
      if (transfer.description !== 'outage') await new Promise((resolve) => setTimeout(resolve, 10));
      return requestTransfer(transfer);
    };
    const rows = Array.from({ length: 12 }, (_, index) =>
      row(String(index + 1), '1.00', index === 2 ? 'outage' : 'payout'),
    );
    const run = runTransferBatch(transfers, csv(...rows), { dryRun: false, by });
    await expect(run).rejects.toThrow(BatchInterruptedError);
    // originId 3 is on line 4 (the header is line 1).
    await expect(run).rejects.toMatchObject({ row: 4, message: expect.stringContaining('safe') });
    // The first BATCH_CONCURRENCY rows were under way together; none was taken after the outage.
    expect([...transfers.requested].sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(BATCH_CONCURRENCY).toBe(8);
  });

  it('requests several rows at once and answers in file order', async () => {
    const transfers = transfersStandIn();
    let inFlight = 0;
    let peak = 0;
    const requestTransfer = transfers.requestTransfer.bind(transfers);
    transfers.requestTransfer = async (transfer: TransferInput) => {
      peak = Math.max(peak, ++inFlight);
      // Later rows answer sooner.
      await new Promise((resolve) => setTimeout(resolve, 30 - (transfer.originId as number)));
      inFlight--;
      return requestTransfer(transfer);
    };
    const rows = Array.from({ length: 20 }, (_, index) => row(String(index + 1)));
    const result = await runTransferBatch(transfers, csv(...rows), { dryRun: false, by });
    expect(result.rows.map((answer) => answer.originId)).toEqual(Array.from({ length: 20 }, (_, index) => index + 1));
    expect(result.summary.created).toBe(20);
    expect(peak).toBe(BATCH_CONCURRENCY);
  });
});

function validRequest() {
  return {
    originId: 8,
    from: {
      addressType: 'CBU_CVU',
      address: '0000003110000000000175',
      owner: { personIdType: 'CUI', personId: '30712345671' },
    },
    to: {
      addressType: 'CBU_CVU',
      address: '2850590994009004181356',
      owner: { personIdType: 'CUI', personId: '20123456786' },
    },
    body: { currencyId: '032', amount: '10.00', description: 'json row', concept: 'VAR' },
  };
}
