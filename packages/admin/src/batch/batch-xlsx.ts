import { Readable } from 'node:stream';
import { HttpStatus } from '@nestjs/common';
import { stream } from 'exceljs';
import { type BatchCell, type BatchHeader, batchEntryOf, DATE_COLUMNS, readBatchHeader } from './batch-columns';
import { type BatchEntry, type BatchInput, MAX_BATCH_ROWS } from './batch-entries';
import { BatchRefusedError } from './batch-errors';

/** The media type of an Excel workbook (.xlsx). */
export const XLSX_MEDIA_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** A cell the streaming reader gives: a value, or one of the objects exceljs makes of rich text, formulas, links. */
type SheetValue = unknown;

/** What a cell holds, read: text, a number or a date as typed; anything else (a boolean, an error) by its kind. */
type ReadCell = BatchCell | { unsupported: string };

/**
 * The rows of an .xlsx batch: the first sheet (the first tab), its first non-empty row the header as in a CSV
 * file, each later non-empty row a transfer, numbered as the sheet numbers it. A cell typed as text is read as
 * that text, one typed as a number as that number (an amount, a CUIT), a formula as the value Excel saved with it.
 * Read with exceljs' streaming reader, which stops at the row after MAX_BATCH_ROWS (413): a small compressed file
 * is never unpacked into memory as a whole.
 */
export async function readBatchXlsx(bytes: Buffer): Promise<BatchInput> {
  const reader = new stream.xlsx.WorkbookReader(Readable.from([bytes]), {
    worksheets: 'emit',
    sharedStrings: 'cache',
    hyperlinks: 'ignore',
    // Styles tell a date from a number: a date is read as one (an execution day), never as its serial number.
    styles: 'cache',
    entries: 'ignore',
  });
  let header: BatchHeader | undefined;
  const entries: BatchEntry[] = [];
  try {
    for await (const sheet of reader) {
      if (!isFirstTab(reader, String((sheet as unknown as { id: unknown }).id))) continue;
      for await (const row of sheet) {
        const cells = cellsOf(row.values as SheetValue[]);
        if (cells.every((cell) => cell === '')) continue;
        if (header === undefined) {
          header = readBatchHeader(cells.map((cell) => (typeof cell === 'string' ? cell : String(cell))));
          continue;
        }
        if (entries.length === MAX_BATCH_ROWS) throw tooManyRows();
        entries.push(entryOf(row.number, header, cells));
      }
      break;
    }
  } catch (error) {
    if (error instanceof BatchRefusedError) throw error;
    throw new BatchRefusedError(HttpStatus.BAD_REQUEST, {
      field: 'body',
      rule: 'xlsx',
      params: {},
      message: `is not an .xlsx workbook exceljs can read: ${String((error as Error).message ?? error).slice(0, 200)}`,
    });
  }
  if (header === undefined) {
    throw new BatchRefusedError(HttpStatus.BAD_REQUEST, {
      field: 'body',
      rule: 'empty',
      params: {},
      message: 'has no header row in its first sheet',
    });
  }
  if (entries.length === 0) {
    throw new BatchRefusedError(HttpStatus.BAD_REQUEST, {
      field: 'body',
      rule: 'empty',
      params: {},
      message: 'has no row under its header',
    });
  }
  return { entries, fieldName: header.fieldName };
}

function tooManyRows(): BatchRefusedError {
  return new BatchRefusedError(HttpStatus.PAYLOAD_TOO_LARGE, {
    field: 'body',
    rule: 'rows',
    params: { max: MAX_BATCH_ROWS },
    message: `must have at most ${MAX_BATCH_ROWS} rows`,
  });
}

/**
 * Whether the sheet file numbered `id` is the workbook's first tab: the tabs' order is the workbook's, and their
 * files are named by the workbook's relationships. Without them (a file that lists its sheets after them), the
 * first sheet file is taken.
 */
function isFirstTab(reader: object, id: string): boolean {
  const { model, workbookRels } = reader as {
    model?: { sheets?: { rId: string }[] };
    workbookRels?: { Id: string; Target: string }[];
  };
  const first = model?.sheets?.[0];
  const target = workbookRels?.find((relation) => relation.Id === first?.rId)?.Target;
  const number = target === undefined ? undefined : /sheet(\d+)\.xml$/.exec(target)?.[1];
  return number === undefined || number === id;
}

/** A row's cells from column A (exceljs numbers them from 1, with holes for empty cells). */
function cellsOf(values: SheetValue[]): ReadCell[] {
  const cells: ReadCell[] = [];
  for (let column = 1; column < values.length; column++) cells.push(readCell(values[column]));
  // Cells formatted but empty at the end of a row are not columns.
  while (cells.length > 0 && cells[cells.length - 1] === '') cells.pop();
  return cells;
}

function readCell(value: SheetValue): ReadCell {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string' || typeof value === 'number') return value;
  if (typeof value === 'boolean') return { unsupported: 'boolean' };
  if (value instanceof Date) return value;
  const object = value as { richText?: { text: string }[]; result?: unknown; formula?: string; text?: unknown };
  if (Array.isArray(object.richText)) return object.richText.map((run) => run.text).join('');
  if ('formula' in object || 'sharedFormula' in object) return readCell(object.result);
  if (typeof object.text === 'string') return object.text;
  return { unsupported: 'error' };
}

/**
 * The entry of a row; a cell of a kind its column does not take (a date outside the execution columns, a boolean,
 * an error) is that row's violation.
 */
function entryOf(row: number, header: BatchHeader, cells: ReadCell[]): BatchEntry {
  // A row shorter than the header ends in empty cells, which a sheet does not store.
  const padded = [...cells, ...new Array<ReadCell>(Math.max(0, header.columns.length - cells.length)).fill('')];
  const unsupported = padded.flatMap((cell, index) => {
    if (cell instanceof Date)
      return DATE_COLUMNS.includes(header.columns[index]) ? [] : [{ column: index + 1, kind: 'date' }];
    return typeof cell === 'object' ? [{ column: index + 1, kind: cell.unsupported }] : [];
  });
  if (unsupported.length > 0) {
    return {
      row,
      unreadable: unsupported.map(({ column, kind }) => ({
        field: 'row',
        rule: 'cell_type',
        params: { column, type: kind },
        message: `column ${column} holds a ${kind}: type it as text or a number`,
      })),
    };
  }
  return batchEntryOf(row, header, padded as BatchCell[]);
}
