import { Readable } from 'node:stream';
import { EXPORT_PAGE_SIZE } from '@giro/admin/export/transfer-export.controller';
import { businessDayOf } from '@giro/transfer-module';
import { parse } from 'csv-parse/sync';
import { Workbook } from 'exceljs';
import { startTestReconciler, type TestReconciler, transferRequest } from './support/reconciler-harness';

// GET /admin/transfers/export.csv against giro itself (the reconciler, its SQLite file, the sandbox bank): the
// search of GET /admin/transfers as a CSV file a spreadsheet opens, read back here with csv-parse as one would.

describe('GET /admin/transfers/export.csv', () => {
  let r: TestReconciler;
  let viewer: string;

  beforeAll(async () => {
    r = await startTestReconciler();
    viewer = (await r.request('POST', '/admin/keys', { body: { name: 'accounting', role: 'viewer' } })).json.key;
    for (const [originId, amount, description] of [
      [9301, '10.00', '=HYPERLINK("http://x")'],
      [9302, '500.00', 'rent, May'],
      [9303, '20.00', '+54 11 5555'],
    ] as const) {
      r.clock.advance(1000);
      const created = await r.request('POST', '/admin/transfers', {
        body: transferRequest({ originId, amount, description }),
      });
      expect(created.status).toBe(201);
    }
  });
  afterAll(() => r.close());

  const exported = async (query = '') => {
    const answer = await r.request('GET', `/admin/transfers/export.csv${query}`, { token: viewer });
    return {
      ...answer,
      rows: answer.status === 200 ? (parse(answer.text, { columns: true }) as Record<string, string>[]) : [],
    };
  };

  it('answers a CSV attachment, one row per transfer, a formula in a description neutralised', async () => {
    const all = await exported();
    expect(all.status).toBe(200);
    expect(all.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(all.headers.get('content-disposition')).toBe(
      `attachment; filename="giro-transfers-${businessDayOf(new Date())}.csv"`,
    );
    expect(all.rows.map((row) => row.originId)).toEqual(['9301', '9302', '9303']);
    expect(all.rows[0].description).toBe(`'=HYPERLINK("http://x")`);
    expect(all.rows[1].description).toBe('rent, May');
    expect(all.rows[2].description).toBe(`'+54 11 5555`);
    const movement = (await r.request('GET', '/admin/transfers/9302')).json;
    expect(all.rows[1]).toMatchObject({
      createdAt: movement.createdAt,
      status: movement.status,
      amount: '500.00',
      currencyId: '032',
      fromAddress: movement.from.address,
      fromCuit: movement.from.owner.personId,
      toAddress: movement.to.address,
      toCuit: movement.to.owner.personId,
      concept: 'VAR',
    });
    expect(all.rows[1].createdAtBuenosAires).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
  });

  it('follows the filters and sort of GET /admin/transfers', async () => {
    expect((await exported('?amountMin=100')).rows.map((row) => row.originId)).toEqual(['9302']);
    expect((await exported('?text=hyperlink')).rows.map((row) => row.originId)).toEqual(['9301']);
    expect((await exported('?amountMax=50&sort=-createdAt')).rows.map((row) => row.originId)).toEqual(['9303', '9301']);
    const none = await exported('?originId=1');
    expect(none.status).toBe(200);
    expect(none.text.trim().split('\n')).toHaveLength(1);
    expect(none.text).toMatch(/^originId,createdAt,createdAtBuenosAires,status,/);
  });

  it('refuses a bad filter with a 400 naming it, and a page of its own (limit, after)', async () => {
    const bad = await exported('?status=NOPE');
    expect(bad.status).toBe(400);
    expect(bad.json.violations).toEqual([expect.objectContaining({ field: 'status' })]);
    const paged = await exported('?limit=5');
    expect(paged.status).toBe(400);
    expect(paged.json.violations).toEqual([expect.objectContaining({ field: 'limit', rule: 'unknown_field' })]);
  });

  it(`exports every match past its reads of ${EXPORT_PAGE_SIZE}: each once, in order`, async () => {
    const count = EXPORT_PAGE_SIZE + 201;
    const operator = (await r.request('POST', '/admin/keys', { body: { name: 'payouts', role: 'operator' } })).json.key;
    const batch = await r.request('POST', '/admin/transfers/batch', {
      token: operator,
      body: Array.from({ length: count }, (_, index) =>
        transferRequest({ originId: 20_001 + index, amount: '1.00', description: `lote grande ${index}` }),
      ),
    });
    expect(batch.status).toBe(200);
    expect(batch.json.summary).toMatchObject({ created: count });

    const { status, rows } = await exported('?text=lote%20grande');
    expect(status).toBe(200);
    expect(rows.map((row) => Number(row.originId))).toEqual(
      Array.from({ length: count }, (_, index) => 20_001 + index),
    );
    // Newest first, all created at the same instant (the test's clock stands still): the cursor breaks the tie by
    // originId, so none is skipped or repeated where one read ends and the next begins.
    const newestFirst = await exported('?text=lote%20grande&sort=-createdAt');
    expect(newestFirst.rows.map((row) => Number(row.originId))).toEqual(
      Array.from({ length: count }, (_, index) => 20_001 + count - 1 - index),
    );
  });

  it('needs a credential', async () => {
    expect((await r.request('GET', '/admin/transfers/export.csv', { token: null })).status).toBe(401);
  });

  it('quotes a cell holding `;` and neutralises full-width formula characters, in the CSV for programs too', async () => {
    for (const [originId, amount, description] of [
      [9304, '1234.50', 'ok;=1+1'],
      [9305, '0.01', '\uFF1D1+1 seña'],
    ] as const) {
      r.clock.advance(1000);
      const created = await r.request('POST', '/admin/transfers', {
        body: transferRequest({ originId, amount, description }),
      });
      expect(created.status).toBe(201);
    }
    const answer = await r.request('GET', '/admin/transfers/export.csv?amountMin=0.01&amountMax=0.01', {
      token: viewer,
    });
    expect(answer.text).toContain(`'\uFF1D1+1 seña`);
    const semicolon = await r.request('GET', '/admin/transfers/export.csv?originId=9304', { token: viewer });
    expect(semicolon.text).toContain('"ok;=1+1"');
  });

  it('exports for Excel in Spanish: `;`, a BOM, a Spanish header, decimal commas, every character intact', async () => {
    const response = await fetch(`${r.url}/admin/transfers/export.csv?dialect=excel-es`, {
      headers: { authorization: `Bearer ${viewer}` },
    });
    expect(response.status).toBe(200);
    const bytes = Buffer.from(await response.arrayBuffer());
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = bytes.toString('utf8');
    expect(text.startsWith('\uFEFFID origen;Creada (UTC);Creada (Buenos Aires);Estado;')).toBe(true);
    expect(text).toContain('\r\n');
    const rows = parse(text, { bom: true, columns: true, delimiter: ';' }) as Record<string, string>[];
    const byId = new Map(rows.map((row) => [row['ID origen'], row]));
    expect(byId.get('9304')).toMatchObject({ Importe: '1234,50', Descripción: 'ok;=1+1' });
    expect(byId.get('9305')).toMatchObject({ Importe: '0,01', Descripción: `'\uFF1D1+1 seña` });
    expect(byId.get('9301')?.Descripción).toBe(`'=HYPERLINK("http://x")`);
    expect(byId.get('9301')?.['Creada (Buenos Aires)']).toMatch(/^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}:\d{2}$/);
    expect(text).toContain('"ok;=1+1"');
    const bad = await r.request('GET', '/admin/transfers/export.csv?dialect=excel-fr', { token: viewer });
    expect(bad.status).toBe(400);
  });

  it('exports the search as .xlsx: amounts as numbers, text as text, never a formula', async () => {
    const response = await fetch(`${r.url}/admin/transfers/export.xlsx?amountMin=10`, {
      headers: { authorization: `Bearer ${viewer}` },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe(
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    );
    expect(response.headers.get('content-disposition')).toContain('.xlsx"');
    const book = new Workbook();
    await book.xlsx.read(Readable.from([Buffer.from(await response.arrayBuffer())]));
    const sheet = book.worksheets[0];
    expect(sheet.getRow(1).values).toEqual(expect.arrayContaining(['ID origen', 'Importe', 'Descripción']));
    const rows = sheet.getRows(2, sheet.rowCount - 1) ?? [];
    const amountColumn = (sheet.getRow(1).values as unknown[]).indexOf('Importe');
    const descriptionColumn = (sheet.getRow(1).values as unknown[]).indexOf('Descripción');
    const byId = new Map(rows.map((row) => [row.getCell(1).value, row]));
    expect(byId.get(9301)?.getCell(amountColumn).value).toBe(10);
    expect([...byId.keys()].sort()).toEqual([9301, 9302, 9303, 9304]);
    expect(byId.get(9304)?.getCell(amountColumn).value).toBe(1234.5);
    expect(byId.get(9304)?.getCell(amountColumn).numFmt).toBe('#,##0.00');
    for (const row of rows) {
      expect(row.getCell(descriptionColumn).formula).toBeUndefined();
      expect(typeof row.getCell(descriptionColumn).value).toBe('string');
    }
    expect(byId.get(9301)?.getCell(descriptionColumn).value).toBe(`'=HYPERLINK("http://x")`);
    const bad = await fetch(`${r.url}/admin/transfers/export.xlsx?status=NOPE`, {
      headers: { authorization: `Bearer ${viewer}` },
    });
    expect(bad.status).toBe(400);
  });
});
