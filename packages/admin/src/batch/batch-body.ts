import type { IncomingMessage } from 'node:http';
import { HttpStatus } from '@nestjs/common';
import { readJsonText } from '../shared/http/strict-json';
import { readBatchCsv } from './batch-csv';
import type { BatchInput } from './batch-entries';
import { BatchRefusedError } from './batch-errors';
import { readBatchJson } from './batch-json';
import { decodeBatchText } from './batch-text-encoding';
import { readBatchXlsx, XLSX_MEDIA_TYPE } from './batch-xlsx';

/** Largest batch body: 1 000 rows of a transfer are about 250 KiB of CSV (less as .xlsx), well under this. */
export const MAX_BATCH_BYTES = 2 * 1024 * 1024;

type RequestWithBody = IncomingMessage & { body?: unknown };

const MEDIA_TYPES = ['text/csv', XLSX_MEDIA_TYPE, 'application/json'];

/**
 * The rows of a batch request: a `text/csv` file, an .xlsx workbook or an `application/json` array (415 for any
 * other type). The body is read here, as bytes, from the request stream, since an application's body parser
 * leaves these types unread and bounds JSON far below a batch; a JSON body the application has parsed already is
 * taken as it is. At most MAX_BATCH_BYTES (413, not read further). A CSV file's bytes are decoded by
 * decodeBatchText (UTF-8 or Windows-1252, whatever its `charset` says: spreadsheets and browsers say none or the
 * wrong one); JSON must be UTF-8 (400), at most as deep as a single request's body (400). Runs inside the route, so after the credential was checked.
 */
export async function readBatchBody(request: RequestWithBody): Promise<BatchInput> {
  const mediaType = (request.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  if (mediaType === 'text/csv') {
    // A body an application's own text parser decoded already is taken as it decoded it.
    if (typeof request.body === 'string') return readBatchCsv(request.body);
    return readBatchCsv(decodeBatchText(await bodyBytes(request)).text);
  }
  if (mediaType === XLSX_MEDIA_TYPE) return readBatchXlsx(await bodyBytes(request));
  if (mediaType === 'application/json') {
    if (request.body !== undefined) return readBatchJson(request.body);
    const read = readJsonText(await bodyText(request));
    if (!read.ok) throw new BatchRefusedError(HttpStatus.BAD_REQUEST, { field: 'body', ...read.violation });
    return readBatchJson(read.value, read.ambiguities);
  }
  throw new BatchRefusedError(HttpStatus.UNSUPPORTED_MEDIA_TYPE, {
    field: 'body',
    rule: 'media_type',
    params: { allowed: MEDIA_TYPES, actual: mediaType.slice(0, 80) },
    message: `must be ${MEDIA_TYPES.join(', ')}, got ${mediaType === '' ? 'no Content-Type' : JSON.stringify(mediaType.slice(0, 80))}`,
  });
}

async function bodyText(request: RequestWithBody): Promise<string> {
  return utf8(await bodyBytes(request));
}

async function bodyBytes(request: RequestWithBody): Promise<Buffer> {
  // A body an application's parser read as bytes (a raw parser of its own) is already here.
  if (Buffer.isBuffer(request.body)) return request.body;
  const tooLarge = () =>
    new BatchRefusedError(HttpStatus.PAYLOAD_TOO_LARGE, {
      field: 'body',
      rule: 'size',
      params: { max: MAX_BATCH_BYTES },
      message: `must be at most ${MAX_BATCH_BYTES} bytes`,
    });
  if (Number(request.headers['content-length'] ?? 0) > MAX_BATCH_BYTES) throw tooLarge();
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    length += chunk.length;
    if (length > MAX_BATCH_BYTES) throw tooLarge();
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

function utf8(bytes: Buffer): string {
  try {
    // `fatal`: JSON in another encoding is refused, not garbled.
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new BatchRefusedError(HttpStatus.BAD_REQUEST, {
      field: 'body',
      rule: 'encoding',
      params: { expected: 'UTF-8' },
      message: 'must be UTF-8',
    });
  }
}
