import type { Writable } from 'node:stream';
import type { DailyCloseView } from '@giro/transfer-module';
import { stream } from 'exceljs';
import { neutralizeFormula } from '../export/csv-formula';
import { DAILY_CLOSE_COLUMNS, dailyCloseRows, SPANISH_DAILY_CLOSE_HEADERS } from './daily-close-rows';

/**
 * The close as an .xlsx workbook (exceljs' streaming writer, as the transfers' export): one sheet, the Spanish
 * header, counts and amounts as numbers (amounts shown with two decimals; an amount's decimal string is exact
 * within a double's 15 digits), every other cell as text, neutralised as in the CSV.
 */
export async function writeDailyCloseXlsx(close: DailyCloseView, output: Writable): Promise<void> {
  const workbook = new stream.xlsx.WorkbookWriter({ stream: output, useStyles: true, useSharedStrings: false });
  const sheet = workbook.addWorksheet(`Cierre ${close.day}`);
  sheet.columns = DAILY_CLOSE_COLUMNS.map((column) => ({
    header: SPANISH_DAILY_CLOSE_HEADERS[column],
    key: column,
    width: column === 'account' || column === 'pendingAtEndOldestCreatedAt' ? 26 : 16,
    ...(column.endsWith('Amount') && { style: { numFmt: '#,##0.00' } }),
  }));
  for (const row of dailyCloseRows(close, { spanish: true })) {
    sheet
      .addRow(
        row.map((cell, index) => {
          const column = DAILY_CLOSE_COLUMNS[index];
          return column.endsWith('Count') || column.endsWith('Amount') ? Number(cell) : neutralizeFormula(cell);
        }),
      )
      .commit();
  }
  sheet.commit();
  await workbook.commit();
}
