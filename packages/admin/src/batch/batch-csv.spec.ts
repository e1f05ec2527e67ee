import { batchColumnOf } from './batch-columns';
import { csvSeparatorOf, readBatchCsv } from './batch-csv';
import { BatchRefusedError } from './batch-errors';

const HEADER = 'originId,fromAddress,fromCuit,toAddress,toCuit,currencyId,amount,description,concept';
const ROW = '7001,0000003110000000000175,30712345671,2850590994009004181356,20123456786,032,1234.50,rent May,ALQ';

/** The answer a refused file gets: its status and its one violation. */
function refusal(text: string) {
  try {
    readBatchCsv(text);
  } catch (error) {
    if (!(error instanceof BatchRefusedError)) throw error;
    const { params: _params, ...violation } = error.violations[0];
    return { status: error.httpStatusCode, code: error.code, ...violation };
  }
  throw new Error('the file was not refused');
}

describe('readBatchCsv', () => {
  it('maps a row to the transfer request of POST /admin/transfers, originId a number', () => {
    const { entries } = readBatchCsv(`${HEADER}\n${ROW}\n`);
    expect(entries).toEqual([
      {
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
          body: { currencyId: '032', amount: '1234.50', description: 'rent May', concept: 'ALQ' },
        },
      },
    ]);
  });

  it('takes the columns in any order, leaves out an empty originId or concept, and keeps other cells as they are', () => {
    const { entries } = readBatchCsv(
      'amount,description,originId,currencyId,fromAddress,fromCuit,toAddress,toCuit\n1.5, two ,,032,a,b,c,d\n',
    );
    expect(entries[0]).toEqual({
      row: 2,
      request: {
        from: { addressType: 'CBU_CVU', address: 'a', owner: { personIdType: 'CUI', personId: 'b' } },
        to: { addressType: 'CBU_CVU', address: 'c', owner: { personIdType: 'CUI', personId: 'd' } },
        body: { currencyId: '032', amount: '1.5', description: ' two ' },
      },
    });
    const notDigits = readBatchCsv(`${HEADER}\n${ROW.replace('7001', '7o01')}`).entries[0];
    expect(notDigits).toMatchObject({ request: { originId: '7o01' } });
  });

  it('numbers each row by the line it starts on: the header is 1, empty lines and quoted line breaks count', () => {
    const text = [HEADER, ROW, '', ROW.replace('rent May', '"two\r\nlines"'), ROW, ROW].join('\r\n');
    expect(readBatchCsv(`\uFEFF${text}`).entries.map((entry) => entry.row)).toEqual([2, 4, 6, 7]);
    expect(readBatchCsv([HEADER, ROW, ROW].join('\r')).entries.map((entry) => entry.row)).toEqual([2, 3]);
  });

  it('makes a row with another number of cells than the header that row’s violation, not the file’s', () => {
    const { entries } = readBatchCsv(`${HEADER}\n${ROW}\n${ROW},extra\n`);
    expect(entries[1]).toEqual({
      row: 3,
      unreadable: [
        {
          field: 'row',
          rule: 'cells',
          params: { expected: 9, actual: 10 },
          message: 'has 10 cells, the header names 9 columns',
        },
      ],
    });
  });

  it('refuses a header with an unknown column, naming it and the columns in both languages', () => {
    expect(refusal(`${HEADER},memo\n${ROW},x\n`)).toMatchObject({
      status: 400,
      code: 'VALIDATION_FAILED',
      field: 'header',
      rule: 'unknown_column',
      message: expect.stringMatching(/"memo".*originId.*idOrigen/),
    });
    for (const name of ['__proto__', 'constructor', 'toString']) {
      expect(refusal(`${HEADER},${name}\n${ROW},x\n`)).toMatchObject({ rule: 'unknown_column' });
    }
  });

  it('reads a file as Excel in Spanish saves it: `;`, Spanish names, `1.500,00`, CUITs with dashes', () => {
    const text = [
      'ID Origen;CBU origen;CUIT origen;CBU destino;CUIT destino;Moneda;Importe;Descripción;Concepto',
      '7001;0000003110000000000175;30-71234567-1;2850590994009004181356;20 12345678 6;032;$ 1.500,00;"seña depósito; Peña";VAR',
    ].join('\r\n');
    const { entries, fieldName } = readBatchCsv(text);
    expect(entries).toEqual([
      {
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
          body: { currencyId: '032', amount: '1500.00', description: 'seña depósito; Peña', concept: 'VAR' },
        },
      },
    ]);
    // Violations name the column as the file does.
    expect(fieldName('body.amount')).toBe('Importe');
    expect(fieldName('to.owner.personId')).toBe('CUIT destino');
  });

  it('reads an execution day or moment, YYYY-MM-DD or dd/mm/aaaa as Excel in Spanish writes them', () => {
    const text = [
      'ID Origen;CBU origen;CUIT origen;CBU destino;CUIT destino;Moneda;Importe;Descripción;Fecha de ejecución;momentoEjecucion',
      '7001;0000003110000000000175;30712345671;2850590994009004181356;20123456786;032;10;a;25/12/2026;',
      '7002;0000003110000000000175;30712345671;2850590994009004181356;20123456786;032;10;b;2026-12-28;',
      '7003;0000003110000000000175;30712345671;2850590994009004181356;20123456786;032;10;c;;5/1/2027 9:30',
      '7004;0000003110000000000175;30712345671;2850590994009004181356;20123456786;032;10;d;;2027-01-05T09:30:00Z',
      '7005;0000003110000000000175;30712345671;2850590994009004181356;20123456786;032;10;e;;',
      '7006;0000003110000000000175;30712345671;2850590994009004181356;20123456786;032;10;f;mañana;',
    ].join('\n');
    const { entries, fieldName } = readBatchCsv(text);
    const scheduleOf = (index: number) => {
      const { executeOn, executeAt } = (entries[index] as { request: { executeOn?: string; executeAt?: string } })
        .request;
      return { executeOn, executeAt };
    };
    expect(scheduleOf(0)).toEqual({ executeOn: '2026-12-25', executeAt: undefined });
    expect(scheduleOf(1)).toEqual({ executeOn: '2026-12-28', executeAt: undefined });
    expect(scheduleOf(2)).toEqual({ executeOn: undefined, executeAt: '2027-01-05T09:30:00-03:00' });
    expect(scheduleOf(3)).toEqual({ executeOn: undefined, executeAt: '2027-01-05T09:30:00Z' });
    expect(entries[4]).not.toHaveProperty('request.executeOn');
    expect(entries[4]).not.toHaveProperty('request.executeAt');
    // Anything else is left as written, for the request's rule to refuse, naming the column as the file does.
    expect(scheduleOf(5).executeOn).toBe('mañana');
    expect(fieldName('executeOn')).toBe('Fecha de ejecución');
  });

  it('ignores the empty columns Excel writes after the last one', () => {
    const { entries } = readBatchCsv(`${HEADER},,\n${ROW},,\n${ROW},x,\n`);
    expect(entries[0]).toMatchObject({ row: 2, request: { originId: 7001 } });
    expect(entries[1]).toMatchObject({ row: 3, unreadable: [{ rule: 'cells', params: { expected: 9, actual: 11 } }] });
  });

  it('makes an ambiguous amount that row’s violation, naming the column', () => {
    const { entries } = readBatchCsv(`${HEADER}\n${ROW.replace('1234.50', '1.500')}\n`);
    expect(entries[0]).toMatchObject({
      row: 2,
      violations: [{ field: 'body.amount', rule: 'ambiguous_amount', params: { value: '1.500' } }],
    });
  });

  it('refuses a header naming one column twice, in two languages', () => {
    expect(refusal(`${HEADER},importe\n`)).toMatchObject({
      rule: 'duplicate_column',
      message: 'names "importe" more than once (the same column)',
    });
  });

  it("refuses an object's inherited names as unknown columns", () => {
    for (const name of ['__proto__', 'constructor', 'toString', 'hasOwnProperty']) {
      expect(refusal(`${HEADER},${name}\n${ROW},x\n`)).toMatchObject({
        rule: 'unknown_column',
        message: expect.stringContaining(`"${name}"`),
      });
    }
  });

  it('refuses a header that lacks a required column or repeats one', () => {
    expect(refusal(`${HEADER.replace(',amount', '')}\n`)).toMatchObject({
      status: 400,
      rule: 'missing_column',
      message: expect.stringContaining('lacks the required columns amount'),
    });
    expect(refusal(`${HEADER},amount\n`)).toMatchObject({
      rule: 'duplicate_column',
      message: 'names "amount" more than once (the same column)',
    });
  });

  it('refuses an empty file, a header alone, and a file that is not CSV, naming the line', () => {
    expect(refusal('')).toMatchObject({ status: 400, field: 'body', rule: 'empty', message: 'has no header row' });
    expect(refusal(`${HEADER}\n\n`)).toMatchObject({ rule: 'empty', message: 'has no row under its header' });
    expect(refusal(`${HEADER}\n${ROW.replace('rent May', '"rent May')}\n`)).toMatchObject({
      status: 400,
      rule: 'csv',
      message: expect.stringMatching(/^is not valid CSV: .*line 2/),
    });
  });

  it('refuses more than 1 000 rows with 413', () => {
    expect(refusal(`${HEADER}\n${`${ROW}\n`.repeat(1001)}`)).toMatchObject({
      status: 413,
      code: 'PAYLOAD_TOO_LARGE',
      rule: 'rows',
    });
    expect(readBatchCsv(`${HEADER}\n${`${ROW}\n`.repeat(1000)}`).entries).toHaveLength(1000);
  });

  it('names the request’s fields by their column', () => {
    expect(batchColumnOf('body.amount')).toBe('amount');
    expect(batchColumnOf('from.owner.personId')).toBe('fromCuit');
    expect(batchColumnOf('to.address')).toBe('toAddress');
    expect(batchColumnOf('from.addressType')).toBe('from.addressType');
    expect(readBatchCsv(`${HEADER}\n${ROW}`).fieldName('body.amount')).toBe('amount');
  });
});

describe('csvSeparatorOf', () => {
  it('takes the separator the header holds, `,` when it holds neither', () => {
    expect(csvSeparatorOf('a,b\n1;2')).toBe(',');
    expect(csvSeparatorOf('a;b\n1,2')).toBe(';');
    expect(csvSeparatorOf('a')).toBe(',');
  });

  it('refuses a header holding both', () => {
    expect(() => csvSeparatorOf('a,b;c\n')).toThrow(BatchRefusedError);
  });
});
