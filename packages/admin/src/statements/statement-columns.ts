import type { StatementLineInput } from '@giro/transfer-module';
import { readOfficeAmount } from '../shared/office/office-amount';
import { refuseStatement } from './statement-errors';

// The columns of a bank statement: by default `date,amount,reference,description`; another bank's headers are
// named by STATEMENT_COLUMNS (`date:Fecha,amount:Importe,reference:Referencia`). Headers compare without case,
// accents or spaces, as the batch's do.

export const STATEMENT_FIELDS = ['date', 'amount', 'reference', 'description'] as const;
export type StatementField = (typeof STATEMENT_FIELDS)[number];

/** The header each field is read from. */
export type StatementColumnNames = Readonly<Record<StatementField, string>>;

export const DEFAULT_STATEMENT_COLUMNS: StatementColumnNames = {
  date: 'date',
  amount: 'amount',
  reference: 'reference',
  description: 'description',
};

/** Only `description` may be absent from a statement. */
const REQUIRED: readonly StatementField[] = ['date', 'amount', 'reference'];

/**
 * The columns a `field:Header` list names (`,`-separated), the unnamed fields keeping their default header.
 * Throws a RangeError naming the first entry that is not `field:Header` with a known field.
 */
export function parseStatementColumns(text: string): StatementColumnNames {
  const names: Record<StatementField, string> = { ...DEFAULT_STATEMENT_COLUMNS };
  for (const entry of text.split(',')) {
    const at = entry.indexOf(':');
    const field = entry.slice(0, at).trim() as StatementField;
    const header = entry.slice(at + 1).trim();
    if (at === -1 || !STATEMENT_FIELDS.includes(field) || header === '') {
      throw new RangeError(
        `"${entry.trim()}" is not field:Header with a field among ${STATEMENT_FIELDS.join(', ')} (e.g. date:Fecha)`,
      );
    }
    names[field] = header;
  }
  return names;
}

function comparable(name: string): string {
  return name
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[\s_.-]/g, '');
}

/** Where each field is in a row (-1: absent), read from the header; a 400 naming the missing columns. */
export type StatementHeader = Readonly<Record<StatementField, number>>;

export function readStatementHeader(cells: string[], names: StatementColumnNames): StatementHeader {
  const positions = cells.map((cell) => comparable(String(cell)));
  const header = Object.fromEntries(
    STATEMENT_FIELDS.map((field) => [field, positions.indexOf(comparable(names[field]))]),
  ) as Record<StatementField, number>;
  const missing = REQUIRED.filter((field) => header[field] === -1).map((field) => names[field]);
  if (missing.length > 0) {
    throw refuseStatement(
      'header',
      'missing_column',
      { columns: missing },
      `lacks the columns ${missing.join(', ')} (STATEMENT_COLUMNS names other headers)`,
    );
  }
  return header;
}

/** A cell as a file holds it: text, a number a spreadsheet typed, or a date it typed. */
export type StatementCell = string | number | Date;

const ISO_DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const SPANISH_DAY = /^(\d{1,2})[/-](\d{1,2})[/-](\d{4})$/;
const DECIMAL = /^(\d+)(?:\.(\d{1,2}))?$/;

/** A statement row as a line: its day, its signed amount in cents, its reference and description; a 400 else. */
export function statementLineOf(row: number, header: StatementHeader, cells: StatementCell[]): StatementLineInput {
  const cell = (field: StatementField): StatementCell => (header[field] === -1 ? '' : (cells[header[field]] ?? ''));
  const text = (field: StatementField) => {
    const value = cell(field);
    return value instanceof Date ? value.toISOString().slice(0, 10) : String(value).trim();
  };
  return {
    line: row,
    date: dayOf(row, cell('date')),
    amountCents: centsOf(row, cell('amount')),
    reference: text('reference'),
    description: text('description'),
  };
}

function dayOf(row: number, cell: StatementCell): string {
  if (cell instanceof Date && !Number.isNaN(cell.getTime())) return cell.toISOString().slice(0, 10);
  const written = String(cell).trim();
  const iso = ISO_DAY.exec(written);
  const spanish = SPANISH_DAY.exec(written);
  const day = iso
    ? `${iso[1]}-${iso[2]}-${iso[3]}`
    : spanish
      ? `${spanish[3]}-${spanish[2].padStart(2, '0')}-${spanish[1].padStart(2, '0')}`
      : '';
  if (day !== '' && new Date(`${day}T00:00:00Z`).toISOString().slice(0, 10) === day) return day;
  throw refuseStatement('date', 'statement_date', { row, value: written.slice(0, 40) }, `on line ${row} is not a day`);
}

function centsOf(row: number, cell: StatementCell): bigint {
  const written = cell instanceof Date ? '' : String(cell).trim();
  const refuse = () =>
    refuseStatement(
      'amount',
      'statement_amount',
      { row, value: written.slice(0, 40) },
      `on line ${row} is not an amount with at most 2 decimals`,
    );
  const negative = written.startsWith('-');
  const unsigned = written.replace(/^[-+]/, '');
  const read = typeof cell === 'number' ? { amount: Math.abs(cell).toString() } : readOfficeAmount(unsigned);
  if ('violation' in read) {
    throw refuseStatement('amount', 'ambiguous_amount', { row, value: written.slice(0, 40) }, read.violation.message);
  }
  const match = DECIMAL.exec(read.amount);
  if (match === null) throw refuse();
  const cents = BigInt(match[1]) * 100n + BigInt((match[2] ?? '').padEnd(2, '0'));
  return negative || (typeof cell === 'number' && cell < 0) ? -cents : cents;
}
