import { Workbook } from 'exceljs';
import { BatchRefusedError } from './batch-errors';
import { readBatchXlsx } from './batch-xlsx';

const HEADER = [
  'ID origen',
  'CBU origen',
  'CUIT origen',
  'CBU destino',
  'CUIT destino',
  'Moneda',
  'Importe',
  'Descripción',
];

/** A workbook as Excel saves one: a sheet before the batch's is never read, so the batch is the first tab. */
async function workbook(rows: unknown[][]): Promise<Buffer> {
  const book = new Workbook();
  const sheet = book.addWorksheet('Lote');
  book.addWorksheet('Notas').addRow(['idOrigen', 'not', 'the', 'batch']);
  for (const row of rows) sheet.addRow(row);
  return Buffer.from(await book.xlsx.writeBuffer());
}

const ROW = [7001, '0000003110000000000175', 30712345671, '2850590994009004181356', '20-12345678-6', 32, 1500, 'seña'];

describe('readBatchXlsx', () => {
  it('reads the first sheet: numbers and text as typed, the header in Spanish, rows by the sheet’s numbers', async () => {
    const bytes = await workbook([
      HEADER,
      ROW,
      [],
      [...ROW.slice(0, 6), 2500.5, { richText: [{ text: 'Peña ' }, { text: 'depósito' }] }],
    ]);
    const { entries, fieldName } = await readBatchXlsx(bytes);
    expect(entries).toHaveLength(2);
    expect(entries[0]).toEqual({
      row: 2,
      request: {
        originId: 7001,
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
        body: { currencyId: '032', amount: '1500', description: 'seña' },
      },
    });
    expect(entries[1]).toMatchObject({ row: 4, request: { body: { amount: '2500.5', description: 'Peña depósito' } } });
    expect(fieldName('body.amount')).toBe('Importe');
  });

  it('refuses an account typed as a number (a spreadsheet keeps 15 digits) and a date, naming the row', async () => {
    const { entries } = await readBatchXlsx(
      await workbook([HEADER, [...ROW.slice(0, 3), Number(ROW[3]), ...ROW.slice(4)], [...ROW.slice(0, 7), new Date()]]),
    );
    expect(entries[0]).toMatchObject({ row: 2, violations: [{ field: 'to.address', rule: 'text_cell' }] });
    expect(entries[1]).toMatchObject({
      row: 3,
      unreadable: [{ rule: 'cell_type', params: { column: 8, type: 'date' } }],
    });
  });

  it('reads a date cell in the execution columns as the Buenos Aires day or time it shows', async () => {
    // A spreadsheet's date has no zone: exceljs gives its day and time as UTC fields.
    const bytes = await workbook([
      [...HEADER, 'Fecha de ejecución', 'Momento de ejecución'],
      [...ROW, new Date(Date.UTC(2026, 11, 25)), ''],
      [...ROW, '', new Date(Date.UTC(2027, 0, 5, 9, 30))],
      [...ROW, '28/12/2026', ''],
    ]);
    const { entries } = await readBatchXlsx(bytes);
    expect(entries.map((entry) => ('request' in entry ? entry.request : entry))).toEqual([
      expect.objectContaining({ executeOn: '2026-12-25' }),
      expect.objectContaining({ executeAt: '2027-01-05T09:30:00-03:00' }),
      expect.objectContaining({ executeOn: '2026-12-28' }),
    ]);
  });

  it('refuses what is no workbook, and more than 1 000 rows with 413', async () => {
    await expect(readBatchXlsx(Buffer.from('originId,amount\n'))).rejects.toThrow(BatchRefusedError);
    const many = await workbook([HEADER, ...Array.from({ length: 1001 }, () => ROW)]);
    await expect(readBatchXlsx(many)).rejects.toMatchObject({ httpStatusCode: 413 });
  });
});
