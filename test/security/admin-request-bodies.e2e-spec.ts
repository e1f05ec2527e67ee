import { request as httpRequest } from 'node:http';
import { MovementStore } from '@giro/transfer-module/persistence';
import {
  type HttpAnswer,
  startTestReconciler,
  type TestReconciler,
  transferRequest,
} from '@test-support/reconciler-harness';

// Hostile bodies: the token is checked before a byte of the body is read; then size, depth and JSON are checked
// before anything parses or validates it. Every 4xx has one shape — statusCode, error, message, and violations
// naming the field and rule when the body is at fault — and nothing is stored or sent.

describe('hostile request bodies', () => {
  let r: TestReconciler;
  beforeAll(async () => {
    r = await startTestReconciler();
  });
  afterAll(() => r?.close());

  const post = (rawBody: string, headers: Record<string, string> = {}) =>
    r.request('POST', '/admin/transfers', { rawBody, headers });
  const stored = async () =>
    Object.values(await r.app.get(MovementStore).countByStatus()).reduce((sum, count) => sum + count, 0);
  const requestViolation = (answer: HttpAnswer, status: number, rule: string) => {
    expect({ status: answer.status, body: answer.json }).toEqual({
      status,
      body: {
        statusCode: status,
        code: status === 413 ? 'PAYLOAD_TOO_LARGE' : 'VALIDATION_FAILED',
        error: expect.any(String),
        message: expect.stringMatching(/^\(request\) /),
        violations: [{ field: '', rule, params: expect.any(Object), message: expect.any(String) }],
        ...(rule === 'type' && { errorName: 'TransferValidationError' }),
      },
    });
  };

  it('answers 400 naming the depth rule to JSON nested 2 000 and 8 000 deep, never 500', async () => {
    for (const depth of [2_000, 8_000]) {
      requestViolation(await post(`${'['.repeat(depth)}${']'.repeat(depth)}`), 400, 'depth');
    }
    requestViolation(await post(`{"from":${'{"a":'.repeat(2_000)}1${'}'.repeat(2_000)}}`), 400, 'depth');
    // Past the size limit, the size rule answers first.
    requestViolation(await post('['.repeat(100_000)), 413, 'size');
    expect(await stored()).toBe(0);
  });

  it('answers 413 naming the size rule to a body over 16 KiB', async () => {
    const big = JSON.stringify(transferRequest({ description: 'x'.repeat(20_000) }));
    requestViolation(await post(big), 413, 'size');
  });

  it('answers 400 with violations to invalid JSON and to bodies that are not an object', async () => {
    for (const text of ['{"originId":', "{'a':1}", 'undefined']) requestViolation(await post(text), 400, 'json');
    for (const text of ['"abc"', '42', 'null', '[]', 'true']) requestViolation(await post(text), 400, 'type');
  });

  it('answers 415 to a body that is not application/json, in the one error shape', async () => {
    const body = JSON.stringify(transferRequest({ originId: 77 }));
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/json; charset=latin1']) {
      const answer = await post(body, { 'content-type': type });
      expect({ type, status: answer.status, body: answer.json }).toEqual({
        type,
        status: 415,
        body: {
          statusCode: 415,
          code: 'UNSUPPORTED_MEDIA_TYPE',
          error: 'Unsupported Media Type',
          message: expect.any(String),
        },
      });
    }
    expect(await stored()).toBe(0);
  });

  it('refuses __proto__, constructor and prototype keys like any unknown field, at every level', async () => {
    const valid = JSON.stringify(transferRequest({ originId: 78 }));
    const cases: [text: string, field: string][] = [
      [valid.replace('{', '{"__proto__":{"admin":true},'), '__proto__'],
      [valid.replace('{', '{"constructor":{"prototype":{"x":1}},'), 'constructor'],
      [valid.replace('"body":{', '"body":{"prototype":1,'), 'body.prototype'],
      [valid.replace('"owner":{', '"owner":{"__proto__":null,'), 'from.owner.__proto__'],
    ];
    for (const [text, field] of cases) {
      const answer = await post(text);
      expect({ field, status: answer.status, violations: answer.json?.violations }).toEqual({
        field,
        status: 400,
        violations: [
          { field, rule: 'unknown_field', params: { allowed: expect.any(Array) }, message: 'is not a known field' },
        ],
      });
    }
    expect(await stored()).toBe(0);
    expect(({} as Record<string, unknown>).admin).toBeUndefined();
  });

  it('refuses a JSON number that is not the number written, and a key given twice, naming the field', async () => {
    const valid = JSON.stringify(transferRequest({ originId: 81 }));
    const cases: [text: string, rule: string, params: Record<string, unknown>][] = [
      [valid.replace('"1234.50"', '1000.000000000000001'), 'exact_number', { value: '1000.000000000000001' }],
      [valid.replace('"1234.50"', '123456789012345678'), 'exact_number', { value: '123456789012345678' }],
      [valid.replace('"amount":"1234.50"', '"amount":"1.00","amount":"5000.00"'), 'duplicate_key', { key: 'amount' }],
      [valid.replace('"amount":"1234.50"', '"amount":"1.00","amount":"1.00"'), 'duplicate_key', { key: 'amount' }],
    ];
    for (const [text, rule, params] of cases) {
      const answer = await post(text);
      expect({ text, status: answer.status, body: answer.json }).toEqual({
        text,
        status: 400,
        body: expect.objectContaining({
          code: 'VALIDATION_FAILED',
          message: expect.stringMatching(/^body\.amount /),
          violations: [{ field: 'body.amount', rule, params, message: expect.any(String) }],
        }),
      });
    }
  });

  it('reads a JSON batch as strictly as one request: the same depth limit, ambiguous rows named, exact ones kept', async () => {
    const batch = (rawBody: string) =>
      r.request('POST', '/admin/transfers/batch?dryRun=true', {
        rawBody,
        headers: { 'content-type': 'application/json' },
      });
    const row = (originId: number) => JSON.stringify(transferRequest({ originId }));
    for (const depth of [11, 2_000]) {
      const answer = await batch(`[${'['.repeat(depth)}${']'.repeat(depth)}]`);
      expect({ status: answer.status, violations: answer.json.violations }).toEqual({
        status: 400,
        violations: [{ field: 'body', rule: 'depth', params: { max: 10 }, message: expect.any(String) }],
      });
    }
    const answer = await batch(
      `[${row(91).replace('"1234.50"', '1000.10')},${row(92).replace('"1234.50"', '1000.000000000000001')},${row(93).replace('"amount":"1234.50"', '"amount":"1.00","amount":"5000.00"')}]`,
    );
    expect(answer.status).toBe(200);
    expect(answer.json.rows).toEqual([
      expect.objectContaining({ row: 1, outcome: 'valid' }),
      expect.objectContaining({
        row: 2,
        outcome: 'invalid',
        violations: [expect.objectContaining({ field: 'body.amount', rule: 'exact_number' })],
      }),
      expect.objectContaining({
        row: 3,
        outcome: 'invalid',
        violations: [
          expect.objectContaining({ field: 'body.amount', rule: 'duplicate_key', params: { key: 'amount' } }),
        ],
      }),
    ]);
    expect(await stored()).toBe(0);
  });

  it('names the maximum actually enforced for an 18-digit amount given as a string', async () => {
    for (const amount of ['"123456789012345678"']) {
      const text = JSON.stringify(transferRequest({ originId: 79 })).replace('"1234.50"', amount);
      const answer = await post(text);
      expect(answer.status).toBe(400);
      expect(answer.json.violations).toEqual([
        {
          field: 'body.amount',
          rule: 'max',
          params: { max: '999999999999.99', value: expect.stringMatching(/^1234567890123456/) },
          message: expect.stringMatching(/^must be at most 999999999999\.99, got /),
        },
      ]);
    }
  });

  it('refuses bidirectional controls and invisible characters in the description, naming the character', async () => {
    const cases: [description: string, named: string][] = [
      ['pago \u202Etxt.exe', 'U+202E RIGHT-TO-LEFT OVERRIDE'],
      ['pa\u200Bgo', 'U+200B ZERO WIDTH SPACE'],
      ['\u2066pago\u2069', 'U+2066 LEFT-TO-RIGHT ISOLATE'],
      ['pago\uFEFF', 'U+FEFF ZERO WIDTH NO-BREAK SPACE'],
      ['\u061Cpago', 'U+061C ARABIC LETTER MARK'],
      ['pago\u2028cuota', 'U+2028 LINE SEPARATOR'],
      ['pago\u2800', 'U+2800 BRAILLE PATTERN BLANK'],
      ['\uFE0Fpago', 'U+FE0F'],
      ['pago\uFFFF', 'U+FFFF'],
      ['pago\uE000', 'U+E000'],
    ];
    for (const [description, named] of cases) {
      const answer = await r.request('POST', '/admin/transfers', {
        body: transferRequest({ originId: 80, description }),
      });
      expect({ named, status: answer.status }).toEqual({ named, status: 400 });
      expect(answer.json.violations).toEqual([
        {
          field: 'body.description',
          rule: 'characters',
          params: expect.objectContaining({ codePoint: named.slice(0, 6) }),
          message: expect.stringContaining(named),
        },
      ]);
    }
    const flood = await r.request('POST', '/admin/transfers', {
      body: transferRequest({ originId: 80, description: `pago${'\u0301'.repeat(90)}` }),
    });
    expect({ status: flood.status, violations: flood.json.violations }).toEqual({
      status: 400,
      violations: [
        {
          field: 'body.description',
          rule: 'characters',
          params: { reason: 'combining_marks', max: 4, position: 9 },
          message: expect.any(String),
        },
      ],
    });
    expect(await stored()).toBe(0);
    expect(r.bank.counters().requests).toEqual({});
  });

  it('answers an unauthenticated 10 MB POST 401 before reading its body', async () => {
    // Only the first 64 KiB of the announced 10 MB are sent, and they are not JSON: an answer can only come
    // from a server that did not wait for the body, let alone parse it.
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const { port } = new URL(r.url);
      const request = httpRequest({
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/admin/transfers',
        headers: { 'content-type': 'application/json', 'content-length': String(10 * 1024 * 1024) },
      });
      request.on('response', (response) => {
        let body = '';
        response.on('data', (chunk: Buffer) => {
          body += chunk.toString('utf8');
        });
        response.on('end', () => {
          request.destroy();
          resolve({ status: response.statusCode ?? 0, body });
        });
      });
      request.on('error', reject);
      request.write('x'.repeat(64 * 1024));
    });
    expect(answer.status).toBe(401);
    expect(JSON.parse(answer.body)).toEqual({
      statusCode: 401,
      code: 'UNAUTHORIZED',
      error: 'Unauthorized',
      message: 'missing bearer token (Authorization: Bearer <API key or ADMIN_TOKEN>)',
    });
  });

  it('answers every other 4xx in the same shape: 401, 404 of a route and of a movement, 400 of a parameter', async () => {
    const shape = (status: number, code: string) => ({
      statusCode: status,
      code,
      error: expect.any(String),
      message: expect.any(String),
    });
    expect((await r.request('GET', '/admin/transfers', { token: 'wrong-token-0123456789' })).json).toEqual(
      shape(401, 'UNAUTHORIZED'),
    );
    expect((await r.request('GET', '/admin/nothing-here')).json).toEqual(shape(404, 'NOT_FOUND'));
    // A refusal of giro's own has its own code, and names its class too (`errorName`).
    expect((await r.request('GET', '/admin/transfers/424242')).json).toEqual({
      ...shape(404, 'TRANSFER_NOT_FOUND'),
      errorName: 'MovementNotFoundError',
      originId: 424242,
    });
    expect((await r.request('GET', '/admin/transfers?limit=0')).json).toEqual({
      ...shape(400, 'VALIDATION_FAILED'),
      violations: [{ field: 'limit', rule: 'min', params: { min: 1 }, message: expect.any(String) }],
    });
  });
});
