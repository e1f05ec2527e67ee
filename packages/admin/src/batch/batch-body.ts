import type { IncomingMessage } from 'node:http';
import { HttpStatus } from '@nestjs/common';
import { readJsonText } from '../shared/http/strict-json';
import { readBatchCsv } from './batch-csv';
import type { BatchInput } from './batch-entries';
import { BatchRefusedError } from './batch-errors';
import { readBatchJson } from './batch-json';

/** Largest batch body: 1 000 rows of a transfer are about 250 KiB of CSV, well under this. */
export const MAX_BATCH_BYTES = 2 * 1024 * 1024;

type RequestWithBody = IncomingMessage & { body?: unknown };

/**
 * The rows of a batch request: a `text/csv` file or an `application/json` array (415 for any other type). The
 * body is read here, from the request stream, since an application's body parser leaves `text/csv` unread and
 * bounds JSON far below a batch; a JSON body the application has parsed already is taken as it is. At most
 * MAX_BATCH_BYTES (413, not read further), UTF-8 (400); JSON at most as deep as a single request's body (400).
 * Runs inside the route, so after the credential was checked.
 */
export async function readBatchBody(request: RequestWithBody): Promise<BatchInput> {
  const mediaType = (request.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  if (mediaType === 'text/csv') return readBatchCsv(await bodyText(request));
  if (mediaType === 'application/json') {
    if (request.body !== undefined) return readBatchJson(request.body);
    const read = readJsonText(await bodyText(request));
    if (!read.ok) throw new BatchRefusedError(HttpStatus.BAD_REQUEST, { field: 'body', ...read.violation });
    return readBatchJson(read.value, read.ambiguities);
  }
  throw new BatchRefusedError(HttpStatus.UNSUPPORTED_MEDIA_TYPE, {
    field: 'body',
    rule: 'media_type',
    params: { allowed: ['text/csv', 'application/json'], actual: mediaType.slice(0, 60) },
    message: `must be text/csv or application/json, got ${mediaType === '' ? 'no Content-Type' : JSON.stringify(mediaType.slice(0, 60))}`,
  });
}

async function bodyText(request: RequestWithBody): Promise<string> {
  // A body an application's parser read as text or bytes (a text/csv parser of its own) is already here.
  if (typeof request.body === 'string') return request.body;
  if (Buffer.isBuffer(request.body)) return decoded(request.body);
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
  return decoded(Buffer.concat(chunks));
}

function decoded(bytes: Buffer): string {
  try {
    // `fatal`: a file saved in another encoding (Latin-1 from an old spreadsheet) is refused, not garbled.
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new BatchRefusedError(HttpStatus.BAD_REQUEST, {
      field: 'body',
      rule: 'encoding',
      params: { expected: 'UTF-8' },
      message: 'must be UTF-8 (save the spreadsheet as "CSV UTF-8")',
    });
  }
}
