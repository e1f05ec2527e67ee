import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HttpStatus } from '@nestjs/common';
import { StatementRefusedError } from './statement-errors';

/** The media type of an Excel workbook (.xlsx). */
export const XLSX_MEDIA_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** Largest statement file: a million lines of CSV are about 80 MiB. */
export const MAX_STATEMENT_BYTES = 512 * 1024 * 1024;

const MEDIA_TYPES = ['text/csv', XLSX_MEDIA_TYPE];

/** A statement's bytes, spooled to a temporary file, with what was learned on the way. */
export interface SpooledStatement {
  path: string;
  format: 'csv' | 'xlsx';
  sha256: string;
  /** A CSV file's encoding: UTF-8 when every byte was valid UTF-8, else Windows-1252. */
  encoding: 'UTF-8' | 'windows-1252';
  /** Removes the temporary file. */
  discard(): Promise<void>;
}

/**
 * The request's body streamed to a temporary file, never held in memory: its sha-256 (the import's idempotency
 * key) and whether it is valid UTF-8 are known before a line is read, so a second import of the same file is
 * answered before parsing, and the parser reads the file again in the encoding it has. 415 for a type other than
 * CSV or .xlsx, 413 beyond MAX_STATEMENT_BYTES.
 */
export async function spoolStatement(request: IncomingMessage & { body?: unknown }): Promise<SpooledStatement> {
  const mediaType = (request.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  if (!MEDIA_TYPES.includes(mediaType)) {
    throw new StatementRefusedError(HttpStatus.UNSUPPORTED_MEDIA_TYPE, {
      field: 'body',
      rule: 'media_type',
      params: { allowed: MEDIA_TYPES, actual: mediaType.slice(0, 80) },
      message: `must be ${MEDIA_TYPES.join(' or ')}`,
    });
  }
  const tooLarge = () =>
    new StatementRefusedError(HttpStatus.PAYLOAD_TOO_LARGE, {
      field: 'body',
      rule: 'size',
      params: { max: MAX_STATEMENT_BYTES },
      message: `must be at most ${MAX_STATEMENT_BYTES} bytes`,
    });
  if (Number(request.headers['content-length'] ?? 0) > MAX_STATEMENT_BYTES) throw tooLarge();
  const directory = await mkdtemp(join(tmpdir(), 'giro-statement-'));
  const path = join(directory, 'statement');
  const discard = () => rm(directory, { recursive: true, force: true });
  try {
    const hash = createHash('sha256');
    const utf8 = new TextDecoder('utf-8', { fatal: true });
    let validUtf8 = true;
    let length = 0;
    const file = createWriteStream(path);
    const body: AsyncIterable<Buffer> | Iterable<Buffer> =
      typeof request.body === 'string' || Buffer.isBuffer(request.body)
        ? [Buffer.from(request.body as string | Buffer)]
        : (request as AsyncIterable<Buffer>);
    for await (const chunk of body) {
      length += chunk.length;
      if (length > MAX_STATEMENT_BYTES) throw tooLarge();
      hash.update(chunk);
      if (validUtf8) {
        try {
          utf8.decode(chunk, { stream: true });
        } catch {
          validUtf8 = false;
        }
      }
      if (!file.write(chunk)) await new Promise<void>((resolve) => file.once('drain', () => resolve()));
    }
    if (validUtf8) {
      try {
        utf8.decode();
      } catch {
        validUtf8 = false;
      }
    }
    await new Promise<void>((resolve, reject) => {
      file.once('error', reject);
      file.end(() => resolve());
    });
    return {
      path,
      format: mediaType === XLSX_MEDIA_TYPE ? 'xlsx' : 'csv',
      sha256: hash.digest('hex'),
      encoding: validUtf8 ? 'UTF-8' : 'windows-1252',
      discard,
    };
  } catch (error) {
    await discard();
    throw error;
  }
}
