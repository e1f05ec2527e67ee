import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import type { StatementLineInput } from '@giro/transfer-module';
import { Workbook } from 'exceljs';
import { DEFAULT_STATEMENT_COLUMNS, parseStatementColumns, type StatementColumnNames } from './statement-columns';
import { StatementRefusedError } from './statement-errors';
import { spoolStatement, XLSX_MEDIA_TYPE } from './statement-file';
import { statementLines } from './statement-lines';

/** A request whose body arrives in small chunks, as a socket gives it. */
function request(bytes: Buffer, contentType = 'text/csv'): IncomingMessage {
  const chunks: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += 7) chunks.push(bytes.subarray(at, at + 7));
  return Object.assign(Readable.from(chunks), { headers: { 'content-type': contentType } }) as IncomingMessage;
}

async function read(bytes: Buffer, columns: StatementColumnNames = DEFAULT_STATEMENT_COLUMNS, type?: string) {
  const file = await spoolStatement(request(bytes, type));
  try {
    const lines: StatementLineInput[] = [];
    for await (const batch of statementLines(file, columns)) lines.push(...batch);
    return { file, lines };
  } finally {
    await file.discard();
  }
}

/** Text as Windows-1252 bytes (the characters used here are all Latin-1). */
function windows1252(text: string): Buffer {
  return Buffer.from(text, 'latin1');
}

describe('statement files', () => {
  it('reads the default columns, a debit negative, the file hashed and spooled away afterwards', async () => {
    const bytes = Buffer.from(
      'date,amount,reference,description\r\n2026-11-23,-1234.50,NET-1,"rent, November"\r\n2026-11-23,20,IN-2,\r\n',
    );
    const { file, lines } = await read(bytes);
    expect(lines).toEqual([
      { line: 2, date: '2026-11-23', amountCents: -123450n, reference: 'NET-1', description: 'rent, November' },
      { line: 3, date: '2026-11-23', amountCents: 2000n, reference: 'IN-2', description: '' },
    ]);
    expect(file.sha256).toBe(createHash('sha256').update(bytes).digest('hex'));
    expect(existsSync(file.path)).toBe(false);
  });

  it('maps Spanish headers by STATEMENT_COLUMNS, with ";" and decimal commas, in Windows-1252', async () => {
    const columns = parseStatementColumns('date:Fecha,amount:Importe,reference:Referencia,description:Descripción');
    const text =
      'Fecha;Importe;Referencia;Descripción\n23/11/2026;-1.234,50;NET-1;Pago señor Peña\n24/11/2026;-0,5;7;\n';
    const { file, lines } = await read(windows1252(text), columns);
    expect(file.encoding).toBe('windows-1252');
    expect(lines).toEqual([
      { line: 2, date: '2026-11-23', amountCents: -123450n, reference: 'NET-1', description: 'Pago señor Peña' },
      { line: 3, date: '2026-11-24', amountCents: -50n, reference: '7', description: '' },
    ]);
  });

  it('reads the first sheet of an .xlsx workbook, dates and numbers as typed', async () => {
    const book = new Workbook();
    const sheet = book.addWorksheet('Extracto');
    sheet.addRow(['Fecha', 'Importe', 'Referencia']);
    sheet.addRow([new Date(Date.UTC(2026, 10, 23)), -1234.5, 'NET-1']);
    sheet.addRow(['24/11/2026', '-1.000,00', 42]);
    const bytes = Buffer.from(await book.xlsx.writeBuffer());
    const columns = parseStatementColumns('date:Fecha,amount:Importe,reference:Referencia');
    const { lines } = await read(bytes, columns, XLSX_MEDIA_TYPE);
    expect(lines).toEqual([
      { line: 2, date: '2026-11-23', amountCents: -123450n, reference: 'NET-1', description: '' },
      { line: 3, date: '2026-11-24', amountCents: -100000n, reference: '42', description: '' },
    ]);
  });

  it('refuses a missing column, a bad date, an amount with three decimals or an ambiguous one, naming the line', async () => {
    const refusal = async (text: string) => {
      try {
        await read(Buffer.from(text));
      } catch (error) {
        if (!(error instanceof StatementRefusedError)) throw error;
        return error.violations[0];
      }
      throw new Error('not refused');
    };
    expect(await refusal('date,amount\n2026-11-23,-1\n')).toMatchObject({
      field: 'header',
      rule: 'missing_column',
      params: { columns: ['reference'] },
    });
    expect(await refusal('date,amount,reference\n2026-11-23,-1,A\n2026-02-30,-1,B\n')).toMatchObject({
      field: 'date',
      rule: 'statement_date',
      params: { row: 3, value: '2026-02-30' },
    });
    expect(await refusal('date,amount,reference\n2026-11-23,-1.234,A\n')).toMatchObject({
      rule: 'ambiguous_amount',
      params: { row: 2 },
    });
    expect(await refusal('date,amount,reference\n2026-11-23,-12.345,A\n')).toMatchObject({
      rule: 'ambiguous_amount',
    });
    expect(await refusal('date,amount,reference\n2026-11-23,12.3456,A\n')).toMatchObject({
      rule: 'statement_amount',
      params: { row: 2, value: '12.3456' },
    });
  });

  it('refuses another media type, and an option naming an unknown field', async () => {
    await expect(spoolStatement(request(Buffer.from('{}'), 'application/json'))).rejects.toMatchObject({
      violations: [{ field: 'body', rule: 'media_type' }],
    });
    expect(() => parseStatementColumns('fecha:Fecha')).toThrow(/field:Header/);
  });
});
