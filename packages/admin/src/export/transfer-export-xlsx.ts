import type { Writable } from 'node:stream';
import type { MovementView } from '@giro/transfer-module';
import { stream } from 'exceljs';
import { neutralizeFormula } from './csv-formula';
import { SPANISH_EXPORT_HEADERS } from './spanish-export';
import { EXPORT_COLUMNS, exportFieldsOf } from './transfer-export-row';

/** The columns the .xlsx holds as numbers: Excel adds them up; every other cell is text. */
const NUMBER_COLUMNS = new Set(['originId', 'amount']);

/**
 * The movements as an .xlsx workbook written to `output` as they come (exceljs' streaming writer: each row is
 * committed, so one page of the search is held at a time): one sheet, the Spanish header, the amount as a number
 * shown with two decimals, the originId as a number; text cells as text (never a formula), neutralised as in the
 * CSV, since a sheet saved again as CSV would otherwise carry a formula out.
 */
export async function writeTransfersXlsx(movements: AsyncIterable<MovementView>, output: Writable): Promise<void> {
  const workbook = new stream.xlsx.WorkbookWriter({ stream: output, useStyles: true, useSharedStrings: false });
  const sheet = workbook.addWorksheet('Transferencias');
  sheet.columns = EXPORT_COLUMNS.map((column) => ({
    header: SPANISH_EXPORT_HEADERS[column],
    key: column,
    width: column === 'description' ? 40 : 24,
    ...(column === 'amount' && { style: { numFmt: '#,##0.00' } }),
  }));
  for await (const movement of movements) {
    const fields = exportFieldsOf(movement);
    sheet
      .addRow(
        EXPORT_COLUMNS.map((column) =>
          NUMBER_COLUMNS.has(column) ? Number(fields[column]) : neutralizeFormula(fields[column]),
        ),
      )
      .commit();
  }
  sheet.commit();
  await workbook.commit();
}
