import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import type { StatementLineInput } from '@giro/transfer-module';
import { CsvError, parse } from 'csv-parse';
import { stream } from 'exceljs';
import { windows1252CodeOf } from '../shared/office/windows-1252';
import {
  readStatementHeader,
  type StatementCell,
  type StatementColumnNames,
  type StatementHeader,
  statementLineOf,
} from './statement-columns';
import { refuseStatement } from './statement-errors';
import type { SpooledStatement } from './statement-file';

/** Lines handed to the store at a time. */
export const STATEMENT_BATCH_LINES = 1000;

/**
 * A spooled statement's lines, in batches, read as a stream from its file: a CSV file decoded in the encoding
 * spooling found and split on the separator its header holds (`,` or `;`), an .xlsx workbook's first sheet
 * through exceljs' streaming reader. The first non-empty row is the header. A line that cannot be read refuses
 * the whole statement (400 naming its line).
 */
export async function* statementLines(
  file: SpooledStatement,
  columns: StatementColumnNames,
): AsyncGenerator<StatementLineInput[]> {
  const rows = file.format === 'xlsx' ? xlsxRows(file.path) : csvRows(file);
  let header: StatementHeader | undefined;
  let batch: StatementLineInput[] = [];
  for await (const { row, cells } of rows) {
    if (cells.every((cell) => cell === '')) continue;
    if (header === undefined) {
      header = readStatementHeader(cells.map(String), columns);
      continue;
    }
    batch.push(statementLineOf(row, header, cells));
    if (batch.length === STATEMENT_BATCH_LINES) {
      yield batch;
      batch = [];
    }
  }
  if (header === undefined) throw refuseStatement('body', 'empty', {}, 'has no header row');
  if (batch.length > 0) yield batch;
}

interface SheetRow {
  row: number;
  cells: StatementCell[];
}

async function* csvRows(file: SpooledStatement): AsyncGenerator<SheetRow> {
  const text = decodedText(file);
  const first = await text.next();
  if (first.done) return;
  const head = first.value.replace(/^\uFEFF/, '');
  const firstLine = head.slice(0, head.search(/\r?\n|$/));
  if (firstLine.includes(',') && firstLine.includes(';')) {
    throw refuseStatement('header', 'separator', { found: [',', ';'] }, 'holds both "," and ";"');
  }
  const parser = Readable.from(
    (async function* () {
      yield head;
      yield* text;
    })(),
  ).pipe(
    parse({
      delimiter: firstLine.includes(';') ? ';' : ',',
      info: true,
      relax_column_count: true,
      skip_empty_lines: true,
    }),
  );
  try {
    for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
      yield { row: info.lines, cells: record };
    }
  } catch (error) {
    if (!(error instanceof CsvError)) throw error;
    throw refuseStatement('body', 'csv', {}, `is not valid CSV: ${error.message.slice(0, 200)}`);
  }
}

/** The file's text in chunks: UTF-8, or each byte as its Windows-1252 character (a byte in neither refused). */
async function* decodedText(file: SpooledStatement): AsyncGenerator<string> {
  const utf8 = new TextDecoder('utf-8');
  let line = 1;
  for await (const chunk of createReadStream(file.path) as AsyncIterable<Buffer>) {
    if (file.encoding === 'UTF-8') {
      yield utf8.decode(chunk, { stream: true });
      continue;
    }
    const codes = new Array<number>(chunk.length);
    for (let at = 0; at < chunk.length; at++) {
      if (chunk[at] === 0x0a) line++;
      const code = windows1252CodeOf(chunk[at]);
      if (code === null) {
        const byte = `0x${chunk[at].toString(16).toUpperCase()}`;
        throw refuseStatement(
          'body',
          'encoding',
          { row: line, byte, expected: ['UTF-8', 'windows-1252'] },
          `has byte ${byte} on line ${line}, which is neither UTF-8 nor Windows-1252`,
        );
      }
      codes[at] = code;
    }
    let text = '';
    for (let at = 0; at < codes.length; at += 8192) text += String.fromCharCode(...codes.slice(at, at + 8192));
    yield text;
  }
  if (file.encoding === 'UTF-8') yield utf8.decode();
}

async function* xlsxRows(path: string): AsyncGenerator<SheetRow> {
  const reader = new stream.xlsx.WorkbookReader(createReadStream(path), {
    worksheets: 'emit',
    sharedStrings: 'cache',
    hyperlinks: 'ignore',
    styles: 'cache',
    entries: 'ignore',
  });
  try {
    for await (const sheet of reader) {
      for await (const row of sheet) {
        const values = row.values as unknown[];
        const cells: StatementCell[] = [];
        for (let column = 1; column < values.length; column++) cells.push(cellOf(values[column]));
        yield { row: row.number, cells };
      }
      return;
    }
  } catch (error) {
    if ((error as { name?: string }).name === 'StatementRefusedError') throw error;
    throw refuseStatement(
      'body',
      'xlsx',
      {},
      `is not an .xlsx workbook: ${String((error as Error).message).slice(0, 200)}`,
    );
  }
}

function cellOf(value: unknown): StatementCell {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string' || typeof value === 'number' || value instanceof Date) return value;
  const object = value as { richText?: { text: string }[]; result?: unknown; text?: unknown };
  if (Array.isArray(object.richText)) return object.richText.map((run) => run.text).join('');
  if ('result' in object) return cellOf(object.result);
  return typeof object.text === 'string' ? object.text : String(value);
}
