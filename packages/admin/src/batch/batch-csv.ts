import { HttpStatus } from '@nestjs/common';
import { CsvError, parse } from 'csv-parse/sync';
import { batchEntryOf, readBatchHeader } from './batch-columns';
import { type BatchInput, MAX_BATCH_ROWS } from './batch-entries';
import { BatchRefusedError } from './batch-errors';

// A batch of transfers as a spreadsheet saves it as CSV: one transfer per row, under a header row naming the
// columns (packages/admin/README.md, "A batch from a file").

export type CsvSeparator = ',' | ';';

/**
 * The separator of a CSV file, read from its header: column names never hold `,` or `;`, so the one the header
 * line holds is the separator (`;` is what Excel in Spanish saves). A header holding both is refused, naming
 * them; a header holding neither has one column, and is read as comma-separated for the header check to name
 * what is missing.
 */
export function csvSeparatorOf(text: string): CsvSeparator {
  const end = text.indexOf('\n');
  const header = end === -1 ? text : text.slice(0, end);
  const commas = header.includes(',');
  const semicolons = header.includes(';');
  if (commas && semicolons) {
    throw new BatchRefusedError(HttpStatus.BAD_REQUEST, {
      field: 'header',
      rule: 'separator',
      params: { found: [',', ';'] },
      message: 'holds both "," and ";": separate its columns with one of them',
    });
  }
  return semicolons ? ';' : ',';
}

/**
 * The rows of a CSV batch (its text decoded, a BOM allowed, `,` or `;` as its header shows, RFC 4180 quoting,
 * empty lines skipped). Refuses the whole file (400, or 413 beyond MAX_BATCH_ROWS rows) when it is not CSV, has
 * no header or no row, or its header names an unknown column, repeats one or lacks a required one.
 */
export function readBatchCsv(text: string): BatchInput {
  const withoutBom = text.startsWith('\uFEFF') ? text.slice(1) : text;
  // Line breaks made one (`\n`) first: csv-parse counts a CRLF inside a quoted cell as two lines.
  const unified = withoutBom.replace(/\r\n?/g, '\n');
  const records = parseRecords(unified, csvSeparatorOf(unified));
  if (records.length === 0) {
    throw new BatchRefusedError(HttpStatus.BAD_REQUEST, {
      field: 'body',
      rule: 'empty',
      params: {},
      message: 'has no header row',
    });
  }
  const [first, ...rows] = records;
  // Excel writes empty columns after the last one when cells there were once formatted: `a;b;;`.
  const width = first.record.findLastIndex((name) => name.trim() !== '') + 1;
  const header = readBatchHeader(first.record.slice(0, width));
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
  const entries = rows.map(({ record, info }) =>
    batchEntryOf(firstLineOf(record, info.lines), header, withoutEmptyTail(record, width)),
  );
  return { entries, fieldName: header.fieldName };
}

interface ParsedRecord {
  record: string[];
  info: { lines: number };
}

function parseRecords(text: string, delimiter: CsvSeparator): ParsedRecord[] {
  try {
    return parse(text, {
      delimiter,
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

/** The row's cells up to the header's width, when every cell past it is empty. */
function withoutEmptyTail(record: string[], width: number): string[] {
  return record.slice(width).every((cell) => cell.trim() === '') ? record.slice(0, width) : record;
}

/** The line a record starts on: csv-parse gives the line it ends on, and a quoted cell may hold line breaks. */
function firstLineOf(record: string[], lastLine: number): number {
  const breaks = record.reduce((count, cell) => count + cell.split('\n').length - 1, 0);
  return lastLine - breaks;
}
