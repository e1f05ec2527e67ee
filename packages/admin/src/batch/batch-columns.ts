import type { Violation } from '@giro/transfer-module';
import { HttpStatus } from '@nestjs/common';
import { readOfficeAmount } from '../shared/office/office-amount';
import type { BatchEntry } from './batch-entries';
import { BatchRefusedError } from './batch-errors';

// The columns of a batch file (CSV or .xlsx), each with its English and Spanish names (packages/admin/README.md,
// "A batch from a file"), and the field of the transfer request it fills.

/** Each column, the field of the transfer request it fills, and its names in a header (English first). */
const COLUMNS = {
  originId: { field: 'originId', names: ['originId', 'idOrigen'] },
  fromAddress: { field: 'from.address', names: ['fromAddress', 'cbuOrigen'] },
  fromCuit: { field: 'from.owner.personId', names: ['fromCuit', 'cuitOrigen'] },
  toAddress: { field: 'to.address', names: ['toAddress', 'cbuDestino'] },
  toCuit: { field: 'to.owner.personId', names: ['toCuit', 'cuitDestino'] },
  currencyId: { field: 'body.currencyId', names: ['currencyId', 'moneda'] },
  amount: { field: 'body.amount', names: ['amount', 'importe', 'monto'] },
  description: { field: 'body.description', names: ['description', 'descripción'] },
  concept: { field: 'body.concept', names: ['concept', 'concepto'] },
  executeOn: { field: 'executeOn', names: ['executeOn', 'fechaEjecucion', 'fechaDeEjecucion'] },
  executeAt: { field: 'executeAt', names: ['executeAt', 'momentoEjecucion', 'momentoDeEjecucion'] },
} as const;

export type BatchColumn = keyof typeof COLUMNS;

export const BATCH_COLUMNS = Object.keys(COLUMNS) as BatchColumn[];
/** The Spanish name of each column, as the README lists them. */
export const BATCH_COLUMNS_SPANISH = BATCH_COLUMNS.map((column) => COLUMNS[column].names[1]);
/**
 * The columns a file may leave out: an empty or absent `concept` is the single route's default; an empty or absent
 * `executeOn` and `executeAt` send the row at once.
 */
const OPTIONAL_COLUMNS: readonly BatchColumn[] = ['concept', 'executeOn', 'executeAt'];
/** The columns a spreadsheet may hold a date in (a cell typed as a date, read as a Buenos Aires day or time). */
export const DATE_COLUMNS: readonly BatchColumn[] = ['executeOn', 'executeAt'];

/**
 * A header name as compared: without case, accents, spaces, `_`, `-` or `.`, so that `ID origen`, `id_origen`
 * and `idOrigen`, or `Descripcion` and `DESCRIPCIÓN`, name the same column.
 */
function comparable(name: string): string {
  return name
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[\s_.-]/g, '');
}

const COLUMN_OF_NAME = new Map<string, BatchColumn>(
  BATCH_COLUMNS.flatMap((column) => COLUMNS[column].names.map((name) => [comparable(name), column] as const)),
);

/**
 * A cell as a file holds it: text, or a number a spreadsheet typed as one, or (in a DATE_COLUMNS column only) a
 * date a spreadsheet typed as one: its UTC fields are the day and time as typed (a spreadsheet knows no zone).
 */
export type BatchCell = string | number | Date;

/** A file's header, read: the column of each position, and how violations name a field (as the header does). */
export interface BatchHeader {
  columns: BatchColumn[];
  fieldName(requestPath: string): string;
}

/** The header's columns, in order; a 400 naming what is wrong with it (unknown, repeated or missing columns). */
export function readBatchHeader(names: string[]): BatchHeader {
  const refuse = (rule: string, columns: string[], message: string) =>
    new BatchRefusedError(HttpStatus.BAD_REQUEST, { field: 'header', rule, params: { columns }, message });
  const expected = `the columns are ${BATCH_COLUMNS.join(', ')} (or in Spanish ${BATCH_COLUMNS_SPANISH.join(', ')})`;
  const trimmed = names.map((name) => name.trim());
  const unknown = trimmed.filter((name) => !COLUMN_OF_NAME.has(comparable(name)));
  if (unknown.length > 0) {
    throw refuse(
      'unknown_column',
      unknown,
      `names unknown columns ${unknown.map((name) => JSON.stringify(name)).join(', ')}; ${expected}`,
    );
  }
  const columns = trimmed.map((name) => COLUMN_OF_NAME.get(comparable(name)) as BatchColumn);
  const repeated = trimmed.filter((_name, index) => columns.indexOf(columns[index]) !== index);
  if (repeated.length > 0) {
    throw refuse(
      'duplicate_column',
      [...new Set(repeated)],
      `names ${[...new Set(repeated)].map((n) => JSON.stringify(n)).join(', ')} more than once (the same column)`,
    );
  }
  const missing = BATCH_COLUMNS.filter((column) => !OPTIONAL_COLUMNS.includes(column) && !columns.includes(column));
  if (missing.length > 0) {
    throw refuse('missing_column', missing, `lacks the required columns ${missing.join(', ')}; ${expected}`);
  }
  const nameOfField = new Map<string, string>(columns.map((column, index) => [COLUMNS[column].field, trimmed[index]]));
  return { columns, fieldName: (path) => nameOfField.get(path) ?? path };
}

/** The CSV column a violation of the transfer request concerns, by its English name (its path when none fills it). */
export function batchColumnOf(requestPath: string): string {
  return BATCH_COLUMNS.find((column) => COLUMNS[column].field === requestPath) ?? requestPath;
}

/** A CUIT or CUIL as written on paper, `20-12345678-6` or `20 12345678 6`: its 11 digits. */
const WRITTEN_CUIT = /^(\d{2})[-\s]?(\d{8})[-\s]?(\d)$/;

/**
 * One row of a file as the entry of a batch: the transfer request `POST /admin/transfers` takes, so that it is
 * judged by exactly the same rules. What an office writes differently is read here first: amounts by
 * readOfficeAmount, CUITs with dashes or spaces, a currency a spreadsheet typed as a number (32) as its three
 * digits. An account number typed as a number is refused: a spreadsheet keeps 15 digits of a number, not 22.
 * `originId` made of digits becomes a number (a JSON body has it as one); an empty `originId` or `concept` is
 * left out (missing; the default concept). A row with another number of cells than the header is that row's
 * violation.
 */
export function batchEntryOf(row: number, header: BatchHeader, cells: BatchCell[]): BatchEntry {
  if (cells.length !== header.columns.length) {
    return {
      row,
      unreadable: [
        {
          field: 'row',
          rule: 'cells',
          params: { expected: header.columns.length, actual: cells.length },
          message: `has ${cells.length} cells, the header names ${header.columns.length} columns`,
        },
      ],
    };
  }
  const byColumn = new Map<BatchColumn, BatchCell>(header.columns.map((column, index) => [column, cells[index]]));
  const violations: Violation[] = [];
  const text = (column: BatchColumn): string => {
    const cell = byColumn.get(column) ?? '';
    return typeof cell === 'string' ? cell : String(cell);
  };
  const account = (column: 'fromAddress' | 'toAddress'): string => {
    const cell = byColumn.get(column);
    if (typeof cell !== 'number') return text(column);
    violations.push({
      field: COLUMNS[column].field,
      rule: 'text_cell',
      params: { value: cell },
      message: 'is a number in the spreadsheet, which keeps only 15 digits: format the column as text',
    });
    return String(cell);
  };
  const cuit = (column: 'fromCuit' | 'toCuit'): string => {
    const written = text(column).trim();
    const match = WRITTEN_CUIT.exec(written);
    return match === null ? text(column) : `${match[1]}${match[2]}${match[3]}`;
  };
  const amount = (): string => {
    const cell = byColumn.get('amount') ?? '';
    // The number as the spreadsheet shows it at full precision (4000.5), judged by the amount rule as text.
    if (typeof cell !== 'string') return String(cell);
    const read = readOfficeAmount(cell);
    if ('amount' in read) return read.amount;
    violations.push(read.violation);
    return cell;
  };
  const currency = byColumn.get('currencyId');
  const currencyId =
    typeof currency === 'number' && Number.isInteger(currency) ? String(currency).padStart(3, '0') : text('currencyId');
  const party = (address: string, personId: string) => ({
    addressType: 'CBU_CVU',
    address,
    owner: { personIdType: 'CUI', personId },
  });
  const originId = text('originId');
  const concept = text('concept');
  const executeOn = officeDayOf(byColumn.get('executeOn') ?? '');
  const executeAt = officeMomentOf(byColumn.get('executeAt') ?? '');
  const request = {
    ...(originId !== '' && { originId: /^[0-9]+$/.test(originId) ? Number(originId) : originId }),
    ...(executeOn !== '' && { executeOn }),
    ...(executeAt !== '' && { executeAt }),
    from: party(account('fromAddress'), cuit('fromCuit')),
    to: party(account('toAddress'), cuit('toCuit')),
    body: {
      currencyId,
      amount: amount(),
      description: text('description'),
      ...(concept !== '' && { concept }),
    },
  };
  return violations.length === 0 ? { row, request } : { row, request, violations };
}

/** `dd/mm/aaaa` (Excel in Spanish), one or two digits for the day and the month. */
const OFFICE_DAY = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/;
/** `dd/mm/aaaa hh:mm` or `dd/mm/aaaa hh:mm:ss`: a Buenos Aires time. */
const OFFICE_MOMENT = /^(\d{1,2})\/(\d{1,2})\/(\d{4})[ T](\d{1,2}):(\d{2})(?::(\d{2}))?$/;
/** Buenos Aires' offset: Argentina keeps no summer time. */
const BUENOS_AIRES_OFFSET = '-03:00';

const two = (digits: string | number) => String(digits).padStart(2, '0');

/**
 * An execution day as an office writes it, as the request's `YYYY-MM-DD`: `dd/mm/aaaa` turned around, a date cell
 * by the day it shows; anything else as written (an empty cell is none), for the request's rule to judge.
 */
export function officeDayOf(cell: BatchCell): string {
  if (cell instanceof Date) return cell.toISOString().slice(0, 10);
  const written = String(cell).trim();
  const match = OFFICE_DAY.exec(written);
  return match === null ? written : `${match[3]}-${two(match[2])}-${two(match[1])}`;
}

/**
 * An execution moment as an office writes it, as the request's ISO 8601 with its offset: `dd/mm/aaaa hh:mm` and a
 * date cell as the Buenos Aires time they show; anything else as written (an ISO 8601 moment passes as it is).
 */
export function officeMomentOf(cell: BatchCell): string {
  if (cell instanceof Date) return `${cell.toISOString().slice(0, 19)}${BUENOS_AIRES_OFFSET}`;
  const written = String(cell).trim();
  const match = OFFICE_MOMENT.exec(written);
  if (match === null) return written;
  const [, day, month, year, hour, minute, second = '00'] = match;
  return `${year}-${two(month)}-${two(day)}T${two(hour)}:${minute}:${second}${BUENOS_AIRES_OFFSET}`;
}
