import { request as httpRequest } from 'node:http';
import { startTestReconciler, type TestReconciler, transferRequest } from './support/reconciler-harness';

// POST /admin/transfers/batch against giro itself: the reconciler on its own SQLite file and the sandbox bank, an
// operator's key, approvals above 1000.00 and a limit of 5000.00 per transfer on the source account. A CSV file
// with one bad row: the dry run names it and changes nothing, the run creates the good rows, and the same file
// again creates nothing.

const HEADER = 'originId,fromAddress,fromCuit,toAddress,toCuit,currencyId,amount,description,concept';
const sample = transferRequest();
const BAD_CUIT = `${sample.to.owner.personId.slice(0, 10)}${(Number(sample.to.owner.personId[10]) + 1) % 10}`;

function csvRow(originId: number, amount: string, options: { toCuit?: string; description?: string } = {}): string {
  const { from, to } = sample;
  const description = options.description ?? `batch ${originId}`;
  return [
    originId,
    from.address,
    from.owner.personId,
    to.address,
    options.toCuit ?? to.owner.personId,
    '032',
    amount,
    description,
    '',
  ].join(',');
}

const FILE = [
  HEADER,
  csvRow(9001, '100.00'),
  csvRow(9002, '50.00', { toCuit: BAD_CUIT }),
  csvRow(9003, '2000.00'),
  csvRow(9004, '6000.00'),
  '',
].join('\r\n');

describe('POST /admin/transfers/batch', () => {
  let r: TestReconciler;
  let operator: string;

  beforeAll(async () => {
    r = await startTestReconciler({
      approvals: { requiredAbove: '1000' },
      limits: { accounts: { [sample.from.address]: { perTransfer: '5000.00' } } },
    });
    const made = await r.request('POST', '/admin/keys', { body: { name: 'batch-ops', role: 'operator' } });
    operator = made.json.key;
  });
  afterAll(() => r.close());

  const sendCsv = (text: string, query = '') =>
    r.request('POST', `/admin/transfers/batch${query}`, {
      rawBody: text,
      token: operator,
      headers: { 'content-type': 'text/csv; charset=utf-8' },
    });
  const storedOriginIds = async () =>
    (await r.request('GET', '/admin/transfers?limit=500')).json.items.map(
      (item: { originId: number }) => item.originId,
    );

  it('in a dry run, names the bad row by its line, column and rule, and creates nothing', async () => {
    const dry = await sendCsv(FILE, '?dryRun=true');
    expect(dry.status).toBe(200);
    const transfer = (originId: number, amount: string) => ({
      fromAddress: sample.from.address,
      fromCuit: sample.from.owner.personId,
      toAddress: sample.to.address,
      toCuit: sample.to.owner.personId,
      currencyId: '032',
      amount,
      description: `batch ${originId}`,
      concept: 'VAR',
    });
    expect(dry.json).toEqual({
      dryRun: true,
      rows: [
        // Nothing was ever paid to the file's destination: each row would be a first payment to it.
        { row: 2, originId: 9001, outcome: 'valid', transfer: transfer(9001, '100.00'), newPayee: true },
        {
          row: 3,
          originId: 9002,
          outcome: 'invalid',
          violations: [{ field: 'toCuit', rule: 'cuit', params: expect.any(Object), message: expect.any(String) }],
        },
        { row: 4, originId: 9003, outcome: 'valid', transfer: transfer(9003, '2000.00'), newPayee: true },
        // The limits as they stand: the run may still differ if other transfers use them first.
        {
          row: 5,
          originId: 9004,
          outcome: 'refused',
          violations: [expect.objectContaining({ field: 'amount', rule: 'per_transfer' })],
          transfer: transfer(9004, '6000.00'),
        },
      ],
      summary: { total: 4, valid: 3, invalid: 1, created: 0, replayed: 0, conflicts: 0, refused: 1 },
      // Only what would be created: the refused row is not money that will move.
      totals: {
        perSource: [{ fromAddress: sample.from.address, currencyId: '032', count: 2, amount: '2100.00' }],
        overall: [{ currencyId: '032', count: 2, amount: '2100.00' }],
      },
    });
    expect(await storedOriginIds()).toEqual([]);
    expect(r.bank.ledger.size).toBe(0);
  });

  it('creates the good rows in order, holds the large one for approval, and reports the bad and refused ones', async () => {
    const run = await sendCsv(FILE);
    expect(run.status).toBe(200);
    expect(run.json).toEqual({
      dryRun: false,
      rows: [
        { row: 2, originId: 9001, outcome: 'created', status: expect.any(String) },
        { row: 3, originId: 9002, outcome: 'invalid', violations: [expect.objectContaining({ field: 'toCuit' })] },
        { row: 4, originId: 9003, outcome: 'created', status: 'AWAITING_APPROVAL' },
        {
          row: 5,
          originId: 9004,
          outcome: 'refused',
          violations: [expect.objectContaining({ field: 'amount', rule: 'per_transfer' })],
        },
      ],
      summary: { total: 4, valid: 3, invalid: 1, created: 2, replayed: 0, conflicts: 0, refused: 1 },
    });
    expect(await storedOriginIds()).toEqual([9001, 9003]);
    expect(r.bank.ledger.entry(9001)).toBeDefined();
    expect(r.bank.ledger.size).toBe(1);
    const created = await r.request('GET', '/admin/transfers/9001');
    expect(created.json.history[0].by).toEqual({ keyId: operator.slice(5, 21), name: 'batch-ops' });
  });

  it('creates nothing twice when the same file is sent again: every good row is replayed', async () => {
    const again = await sendCsv(FILE);
    expect(again.status).toBe(200);
    expect(again.json.rows.map((row: { outcome: string }) => row.outcome)).toEqual([
      'replayed',
      'invalid',
      'replayed',
      'refused',
    ]);
    expect(again.json.summary).toMatchObject({ created: 0, replayed: 2 });
    const dry = await sendCsv(FILE, '?dryRun=true');
    expect(dry.json.rows.map((row: { outcome: string }) => row.outcome)).toEqual([
      'exists',
      'invalid',
      'exists',
      'refused',
    ]);
    expect(dry.json.rows[2]).toMatchObject({ status: 'AWAITING_APPROVAL' });
    expect(await storedOriginIds()).toEqual([9001, 9003]);
    expect(r.bank.ledger.size).toBe(1);
  });

  it('reports an originId stored with another payload as a conflict, and a repeated one as the later row’s error', async () => {
    const file = [HEADER, csvRow(9001, '100.01'), csvRow(9005, '10.00'), csvRow(9005, '10.00')].join('\n');
    const dry = await sendCsv(file, '?dryRun=true');
    expect(dry.json.rows.map((row: { outcome: string }) => row.outcome)).toEqual(['conflict', 'valid', 'invalid']);
    const run = await sendCsv(file);
    expect(run.json.rows).toEqual([
      { row: 2, originId: 9001, outcome: 'conflict' },
      { row: 3, originId: 9005, outcome: 'created', status: expect.any(String) },
      {
        row: 4,
        originId: 9005,
        outcome: 'invalid',
        violations: [
          {
            field: 'originId',
            rule: 'unique',
            params: { originId: 9005, row: 3 },
            message: 'repeats originId 9005 of row 3',
          },
        ],
      },
    ]);
    expect((await r.request('GET', '/admin/transfers/9001')).json.amount).toBe('100.00');
  });

  it('takes a JSON array of transfer requests, rows numbered from 1 and fields named by their path', async () => {
    const run = await r.request('POST', '/admin/transfers/batch', {
      token: operator,
      body: [
        transferRequest({ originId: 9101, amount: '10.00' }),
        transferRequest({ originId: 9102, amount: '10.001' }),
        transferRequest({ amount: '10.00' }),
      ],
    });
    expect(run.status).toBe(200);
    expect(run.json.rows).toEqual([
      { row: 1, originId: 9101, outcome: 'created', status: expect.any(String) },
      { row: 2, originId: 9102, outcome: 'invalid', violations: [expect.objectContaining({ field: 'body.amount' })] },
      {
        row: 3,
        originId: null,
        outcome: 'invalid',
        violations: [expect.objectContaining({ field: 'originId', rule: 'required' })],
      },
    ]);
  });

  it('refuses a file it cannot read as a whole, naming the problem, and changes nothing', async () => {
    const before = await storedOriginIds();
    const unknownColumn = await sendCsv(`${HEADER},memo\n${csvRow(9201, '1.00')},x\n`);
    expect(unknownColumn.status).toBe(400);
    expect(unknownColumn.json).toMatchObject({ code: 'VALIDATION_FAILED', errorName: 'BatchRefusedError' });
    expect(unknownColumn.json.violations).toEqual([
      {
        field: 'header',
        rule: 'unknown_column',
        params: { columns: ['memo'] },
        message: expect.stringContaining('"memo"'),
      },
    ]);
    expect((await sendCsv('')).json.violations).toEqual([expect.objectContaining({ rule: 'empty' })]);
    expect((await sendCsv(`${HEADER}\n"9201,unclosed\n`)).json.violations).toEqual([
      expect.objectContaining({ field: 'body', rule: 'csv' }),
    ]);
    const tooLarge = await sendCsv(`${HEADER}\n${`${csvRow(9201, '1.00')}\n`.repeat(1001)}`);
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.json.code).toBe('PAYLOAD_TOO_LARGE');
    expect(tooLarge.json.violations).toEqual([expect.objectContaining({ rule: 'rows' })]);
    const plain = await r.request('POST', '/admin/transfers/batch', {
      rawBody: 'hello',
      token: operator,
      headers: { 'content-type': 'text/plain' },
    });
    expect(plain.status).toBe(415);
    expect(plain.json.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    const notArray = await r.request('POST', '/admin/transfers/batch', { token: operator, body: transferRequest() });
    expect(notArray.status).toBe(400);
    expect(notArray.json.violations).toEqual([expect.objectContaining({ field: 'body', rule: 'array' })]);
    const badFlag = await sendCsv(FILE, '?dryRun=yes');
    expect(badFlag.status).toBe(400);
    expect(badFlag.json.violations).toEqual([expect.objectContaining({ field: 'dryRun' })]);
    expect(await storedOriginIds()).toEqual(before);
  });

  it('answers a large body without reading it: 401 without a key, 403 for a viewer, 413 past 2 MiB', async () => {
    const viewer = (await r.request('POST', '/admin/keys', { body: { name: 'batch-viewer', role: 'viewer' } })).json
      .key;
    // 10 MB announced, 64 KiB sent: an answer can only come from a server that did not wait for the body.
    const partly = (token?: string) =>
      new Promise<number>((resolve, reject) => {
        const request = httpRequest({
          host: '127.0.0.1',
          port: new URL(r.url).port,
          method: 'POST',
          path: '/admin/transfers/batch',
          headers: {
            'content-type': 'text/csv',
            'content-length': String(10 * 1024 * 1024),
            ...(token !== undefined && { authorization: `Bearer ${token}` }),
          },
        });
        request.on('response', (response) => {
          response.resume();
          response.on('end', () => {
            request.destroy();
            resolve(response.statusCode ?? 0);
          });
        });
        request.on('error', reject);
        request.write(`${HEADER}\n${'x'.repeat(64 * 1024)}`);
      });
    expect(await partly()).toBe(401);
    expect(await partly(viewer)).toBe(403);
    expect(await partly(operator)).toBe(413);
  });

  it('is audited as transfer.batch, each created transfer with the operator', async () => {
    const audit = await r.request('GET', '/admin/audit?action=transfer.batch&limit=500');
    expect(audit.status).toBe(200);
    expect(audit.json.items.length).toBeGreaterThan(0);
    expect(audit.json.items[0].actor).toMatchObject({ name: 'batch-ops' });
  });

  it('documents the CSV columns in OpenAPI', async () => {
    const docs = await r.request('GET', '/docs-json', { token: null });
    const batch = docs.json.paths['/admin/transfers/batch'].post;
    expect(Object.keys(batch.requestBody.content)).toEqual([
      'text/csv',
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      'application/json',
    ]);
    expect(batch.description).toContain('originId, fromAddress, fromCuit, toAddress, toCuit, currencyId, amount');
  });
  it('schedules the rows that ask for a day: the dry run says the day after the calendar, a past day is the row’s error', async () => {
    const { from, to } = sample;
    const line = (originId: number, day: string) =>
      [originId, from.address, from.owner.personId, to.address, to.owner.personId, '032', '10,00', 'sueldo', day].join(
        ';',
      );
    const file = [
      'idOrigen;cbuOrigen;cuitOrigen;cbuDestino;cuitDestino;moneda;importe;descripción;fechaEjecucion',
      line(9601, '25/12/2026'),
      line(9602, '01/02/2020'),
      line(9603, ''),
    ].join('\r\n');
    const dry = await sendCsv(file, '?dryRun=true');
    expect(dry.status).toBe(200);
    // Christmas is a holiday: Monday the 28th, at the release time (09:00 in Buenos Aires).
    expect(dry.json.rows[0].transfer.schedule).toEqual({
      executeAt: '2026-12-28T12:00:00.000Z',
      requested: { executeOn: '2026-12-25' },
    });
    expect(dry.json.rows[1]).toMatchObject({
      row: 3,
      outcome: 'invalid',
      violations: [{ field: 'fechaEjecucion', rule: 'past' }],
    });
    expect(dry.json.rows[2].transfer).not.toHaveProperty('schedule');
    const before = r.bank.ledger.size;
    const run = await sendCsv(file);
    expect(run.json.rows.map((row: { outcome: string; status?: string }) => [row.outcome, row.status])).toEqual([
      ['created', 'SCHEDULED'],
      ['invalid', undefined],
      ['created', expect.any(String)],
    ]);
    // Only the row without a day went to the bank.
    expect(r.bank.ledger.entry(9601)).toBeUndefined();
    expect(r.bank.ledger.size).toBe(before + 1);
    const listed = await r.request(
      'GET',
      '/admin/transfers?status=SCHEDULED&sort=executeAt&executeFrom=2026-12-28&executeTo=2026-12-28',
      { token: operator },
    );
    expect(listed.json.items.map((item: { originId: number }) => item.originId)).toEqual([9601]);
  });
});
