import type { IncomingMessage, ServerResponse } from 'node:http';
import { AdminAuthentication, ambiguityViolations, readJsonText } from '@giro/admin';
import type { ErrorCode, Violation } from '@giro/transfer-module';
import { HttpException, HttpStatus, Injectable, type NestMiddleware } from '@nestjs/common';
import getRawBody from 'raw-body';

/** Largest request body: a transfer request is well under 1 KiB. */
export const BODY_LIMIT_BYTES = 16 * 1024;

type RequestWithBody = IncomingMessage & { body?: unknown };

/**
 * The request body, read as JSON — after the credential was checked: a request without a valid one never has
 * its body read (the guards answer it 401, or 429 past the unauthenticated budget), so an anonymous client cannot
 * make the server read, buffer or parse anything. No route without a token takes a body.
 *
 * Then, before anything parses it: `application/json` in UTF-8 without content encoding (else 415), at most
 * BODY_LIMIT_BYTES (else 413, without reading further when Content-Length says so), nested at most
 * MAX_JSON_DEPTH deep (else 400) and valid JSON (else 400), then unambiguous (else 400): no key given twice, no
 * number a double does not hold exactly (readJsonText). Each 4xx names the rule in
 * `violations`. Any JSON value is kept (not objects only), so the route's validation says what it expected.
 */
@Injectable()
export class JsonBodyMiddleware implements NestMiddleware {
  constructor(private readonly authentication: AdminAuthentication) {}

  async use(request: RequestWithBody, _response: ServerResponse, next: () => void): Promise<void> {
    if (!hasBody(request) || (await this.authentication.authenticate(request)) === undefined) return next();
    checkMediaType(request);
    const text = await readBody(request);
    const read = readJsonText(text);
    if (!read.ok) throw refused(HttpStatus.BAD_REQUEST, 'VALIDATION_FAILED', read.violation);
    const ambiguities = ambiguityViolations(read.ambiguities);
    if (ambiguities.length > 0) {
      throw new HttpException(
        {
          code: 'VALIDATION_FAILED',
          message: ambiguities.map((violation) => `${violation.field} ${violation.message}`).join('; '),
          violations: ambiguities,
        },
        HttpStatus.BAD_REQUEST,
      );
    }
    request.body = read.value;
    next();
  }
}

/** A body is coming when its length is announced and not zero, or it is chunked (type-is's rule). */
function hasBody(request: IncomingMessage): boolean {
  const length = request.headers['content-length'];
  return request.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

function checkMediaType(request: IncomingMessage): void {
  const [mediaType = '', ...parameters] = (request.headers['content-type'] ?? '').split(';');
  const type = mediaType.trim().toLowerCase();
  if (type !== 'application/json') {
    throw new HttpException(
      `Content-Type must be application/json, got ${type === '' ? 'none' : JSON.stringify(type.slice(0, 60))}`,
      HttpStatus.UNSUPPORTED_MEDIA_TYPE,
    );
  }
  const charset = parameters
    .map((parameter) => parameter.trim().toLowerCase())
    .find((parameter) => parameter.startsWith('charset='))
    ?.slice('charset='.length)
    .replace(/"/g, '');
  const encoding = (request.headers['content-encoding'] ?? 'identity').toLowerCase();
  if ((charset !== undefined && charset !== 'utf-8') || encoding !== 'identity') {
    throw new HttpException('the body must be UTF-8 JSON without Content-Encoding', HttpStatus.UNSUPPORTED_MEDIA_TYPE);
  }
}

async function readBody(request: IncomingMessage): Promise<string> {
  try {
    return await getRawBody(request, {
      limit: BODY_LIMIT_BYTES,
      length: request.headers['content-length'],
      encoding: 'utf-8',
    });
  } catch (error) {
    if ((error as { type?: string }).type === 'entity.too.large') {
      throw refused(HttpStatus.PAYLOAD_TOO_LARGE, 'PAYLOAD_TOO_LARGE', {
        rule: 'size',
        params: { max: BODY_LIMIT_BYTES },
        message: `must be at most ${BODY_LIMIT_BYTES} bytes`,
      });
    }
    // Aborted, or shorter or longer than its Content-Length.
    throw refused(HttpStatus.BAD_REQUEST, 'VALIDATION_FAILED', {
      rule: 'body',
      params: {},
      message: 'could not be read in full',
    });
  }
}

/** The body refused as a whole (`field` ''), by `violation`: the error body's message repeats it. */
function refused(status: HttpStatus, code: ErrorCode, violation: Omit<Violation, 'field'>): HttpException {
  return new HttpException(
    { code, message: `(request) ${violation.message}`, violations: [{ field: '', ...violation }] },
    status,
  );
}
