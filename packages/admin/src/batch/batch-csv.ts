import { HttpStatus } from '@nestjs/common';
import { CsvError, parse } from 'csv-parse/sync';
import { type BatchEntry, type BatchInput, MAX_BATCH_ROWS } from './batch-entries';
import { BatchRefusedError } from './batch-errors';

// A batch of transfers as a spreadsheet saves it: one transfer per row, under a header row naming the columns
// (packages/admin/README.md, "A batch from a CSV file"). Each row becomes the request `POST /admin/transfers`
// takes, so it is validated by exactly the same rules.

/** Each column, and the field of the transfer request it fills (violations name the column). */
const COLUMN_FIELDS = {
  originId: 'originId',
  fromAddress: 'from.address',
  fromCuit: 'from.owner.personId',
  toAddress: 'to.address',
  toCuit: 'to.owner.personId',
  currencyId: 'body.currencyId',
  amount: 'body.amount',
  description: 'body.description',
  concept: 'body.concept',
} as const;

export type BatchColumn = keyof typeof COLUMN_FIELDS;

export const BATCH_CSV_COLUMNS = Object.keys(COLUMN_FIELDS) as BatchColumn[];
/** The columns a file may leave out: an empty or absent `concept` is the single route's default. */
const OPTIONAL_COLUMNS: readonly BatchColumn[] = ['concept'];

const COLUMN_OF_FIELD = new Map<string, string>(Object.entries(COLUMN_FIELDS).map(([column, path]) => [path, column]));

/** The CSV column a violation of the transfer request concerns (its path when no column fills it). */
export function csvColumnOf(requestPath: string): string {
  return COLUMN_OF_FIELD.get(requestPath) ?? requestPath;
}

/**
 * The rows of a CSV batch (UTF-8, a BOM allowed, comma-separated, RFC 4180 quoting, empty lines skipped).
 * Refuses the whole file (400, or 413 beyond MAX_BATCH_ROWS rows) when it is not CSV, has no header or no row,
 * or its header names an unknown column, repeats one or lacks a required one. A row with another number of
 * cells than the header is that row's violation, not the file's.
 */
export function readBatchCsv(text: string): BatchInput {
  const records = parseRecords(text);
  if (records.length === 0) {
    throw new BatchRefusedError(HttpStatus.BAD_REQUEST, {
      field: 'body',
      rule: 'empty',
      params: {},
      message: 'has no header row',
    });
  }
  const [header, ...rows] = records;
  const columns = checkedHeader(header.record);
  if (rows.length === 0) {
    throw new BatchRefusedError(HttpStatus.BAD_REQUEST, {
      field: 'body',
      rule: 'empty',
      params: {},
      message: 'has no row under its header',
    });
  }
  if (rows.length > MAX_BATCH_ROWS) {
    throw new BatchRefusedError(HttpStatus.PAYLOAD_TOO_LARGE, {
      field: 'body',
      rule: 'rows',
      params: { max: MAX_BATCH_ROWS, actual: rows.length },
      message: `must have at most ${MAX_BATCH_ROWS} rows, has ${rows.length}`,
    });
  }
  const entries = rows.map(({ record, info }): BatchEntry => {
    const row = firstLineOf(record, info.lines);
    if (record.length !== columns.length) {
      return {
        row,
        unreadable: [
          {
            field: 'row',
            rule: 'cells',
            params: { expected: columns.length, actual: record.length },
            message: `has ${record.length} cells, the header names ${columns.length} columns`,
          },
        ],
      };
    }
    return { row, request: requestOf(new Map(columns.map((column, index) => [column, record[index]]))) };
  });
  return { entries, fieldName: csvColumnOf };
}

interface ParsedRecord {
  record: string[];
  info: { lines: number };
}

function parseRecords(text: string): ParsedRecord[] {
  try {
    // Line breaks made one (`\n`) first: csv-parse counts a CRLF inside a quoted cell as two lines.
    return parse(text.replace(/\r\n?/g, '\n'), {
      bom: true,
      info: true,
      relax_column_count: true,
      skip_empty_lines: true,
    }) as unknown as ParsedRecord[];
  } catch (error) {
    if (!(error instanceof CsvError)) throw error;
    // csv-parse's message names the line ("… at line 4"); the start of a cell it quotes is enough.
    const message = error.message.length > 200 ? `${error.message.slice(0, 200)}…` : error.message;
    throw new BatchRefusedError(HttpStatus.BAD_REQUEST, {
      field: 'body',
      rule: 'csv',
      params: {},
      message: `is not valid CSV: ${message}`,
    });
  }
}

/** The header's columns, in order; a 400 naming what is wrong with it. */
function checkedHeader(names: string[]): BatchColumn[] {
  const refuse = (rule: string, columns: string[], message: string) =>
    new BatchRefusedError(HttpStatus.BAD_REQUEST, { field: 'header', rule, params: { columns }, message });
  const expected = `the columns are ${BATCH_CSV_COLUMNS.join(', ')} (names are case-sensitive)`;
  const unknown = names.filter((name) => !Object.hasOwn(COLUMN_FIELDS, name));
  if (unknown.length > 0) {
    throw refuse(
      'unknown_column',
      unknown,
      `names unknown columns ${unknown.map((name) => JSON.stringify(name)).join(', ')}; ${expected}`,
    );
  }
  const repeated = names.filter((name, index) => names.indexOf(name) !== index);
  if (repeated.length > 0) {
    throw refuse(
      'duplicate_column',
      [...new Set(repeated)],
      `names ${[...new Set(repeated)].map((n) => JSON.stringify(n)).join(', ')} more than once`,
    );
  }
  const missing = BATCH_CSV_COLUMNS.filter((column) => !OPTIONAL_COLUMNS.includes(column) && !names.includes(column));
  if (missing.length > 0) {
    throw refuse('missing_column', missing, `lacks the required columns ${missing.join(', ')}; ${expected}`);
  }
  return names as BatchColumn[];
}

/** The line a record starts on: csv-parse gives the line it ends on, and a quoted cell may hold line breaks. */
function firstLineOf(record: string[], lastLine: number): number {
  const breaks = record.reduce((count, cell) => count + cell.split('\n').length - 1, 0);
  return lastLine - breaks;
}

/**
 * The transfer request of one row, as `POST /admin/transfers` takes it. Cells are passed on as they are, so the
 * request's rules judge them; only `originId` made of digits becomes a number (a JSON body has it as one), and an
 * empty `originId` or `concept` is left out (missing; the default concept).
 */
function requestOf(cells: Map<BatchColumn, string>): Record<string, unknown> {
  const cell = (column: BatchColumn) => cells.get(column) ?? '';
  const party = (address: string, personId: string) => ({
    addressType: 'CBU_CVU',
    address,
    owner: { personIdType: 'CUI', personId },
  });
  const originId = cell('originId');
  const concept = cell('concept');
  return {
    ...(originId !== '' && { originId: /^[0-9]+$/.test(originId) ? Number(originId) : originId }),
    from: party(cell('fromAddress'), cell('fromCuit')),
    to: party(cell('toAddress'), cell('toCuit')),
    body: {
      currencyId: cell('currencyId'),
      amount: cell('amount'),
      description: cell('description'),
      ...(concept !== '' && { concept }),
    },
  };
}
