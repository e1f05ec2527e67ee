import { TransferValidationError } from '@giro/transfer-module';
import { MovementStore } from '@giro/transfer-module/persistence';
import { validateTransferRequest } from '@giro/transfer-module/transfer/transfer-request.validation';
import { LoopbackHosts } from '@test-support/loopback-hosts';
import {
  ADMIN_TOKEN,
  startTestReconciler,
  type TestReconciler,
  transferRequest,
} from '@test-support/reconciler-harness';
import fc from 'fast-check';
import {
  badCsvCell,
  badFields,
  CSV_HEADER,
  csvRowWith,
  requestText,
  validDescription,
} from './admin-request-arbitraries';

// Bad input, fuzzed: the admin API (an in-process reconciler over HTTP, its sandbox bank, an SQLite file) and
// the transfer request's validation behind it. Wrong types, huge numbers, 1e309, -0, "NaN", 3-decimal amounts,
// wrong check digits, control characters, unknown fields (`__proto__` too), broken JSON, deep nesting, oversized
// bodies → a 4xx naming the field, nothing stored, nothing sent, the server alive. Valid Unicode text (without
// bidirectional controls or invisible characters) is accepted and kept exactly.

describe('bad input to the admin API and the transfer request’s validation', () => {
  let r: TestReconciler;
  let hosts: LoopbackHosts;
  const figures = {
    badFields: 0,
    brokenJson: 0,
    anyJson: 0,
    deep: 0,
    oversized: 0,
    params: 0,
    unicode: 0,
    dtoInputs: 0,
    approvals: 0,
    batches: 0,
  };
  const broken: string[] = [];

  beforeAll(async () => {
    // Hundreds of requests in seconds with the admin token, whose budget (600 a minute) is not what is tested.
    r = await startTestReconciler({ adminRateLimitPerMinute: 100_000 });
    hosts = new LoopbackHosts(8);
  });
  afterAll(async () => {
    await hosts?.close();
    await r?.close();
    const requests = Object.entries(figures)
      .map(([name, n]) => `${name} ${n}`)
      .join(', ');
    console.log(
      `admin API fuzz: ${requests}; ` +
        (broken.length === 0
          ? 'every bad one a 4xx naming its field, stored 0, sent to the bank 0, server alive'
          : `BROKEN: ${broken.join('; ')}`),
    );
  });

  const post = (body: string, headers: Record<string, string> = {}) =>
    hosts.request(`${r.url}/admin/transfers`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json', ...headers },
      body,
    });
  const get = (path: string) =>
    hosts.request(`${r.url}${path}`, { method: 'GET', headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
  /** What a bad request must not change: movements stored, transfers the bank saw or processed. */
  const footprint = async () => {
    const counts = await r.app.get(MovementStore).countByStatus();
    const sent = r.bank.counters().requests['transfer-request'] ?? {};
    return {
      stored: Object.values(counts).reduce((sum, n) => sum + n, 0),
      sent: Object.values(sent).reduce((sum, n) => sum + n, 0),
      processed: r.bank.ledger.size,
    };
  };
  /** Runs a property, noting its name for the closing line when it fails. */
  const guard = async (name: string, run: () => unknown) => {
    try {
      await run();
    } catch (error) {
      broken.push(name);
      throw error;
    }
  };
  let originId = 5_000_000;

  it('answers 400 naming the bad fields and their rules, and stores and sends nothing', () =>
    guard('bad fields', () =>
      fc.assert(
        fc.asyncProperty(badFields, async (bad) => {
          figures.badFields += 1;
          const before = await footprint();
          const text = requestText(transferRequest({ originId: ++originId }), bad);
          const answer = await post(text);
          const named =
            answer.status === 400 ? (JSON.parse(answer.text).violations as { field: string; rule: string }[]) : [];
          expect({ status: answer.status, text: answer.text.slice(0, 300) }).toMatchObject({ status: 400 });
          // The fields named are the bad ones, and at least one is named.
          const badNames = bad.map(({ field }) => field);
          expect({ badNames, named }).toEqual({
            badNames,
            named: expect.arrayContaining([expect.objectContaining({ field: expect.any(String) })]),
          });
          for (const violation of named) expect(badNames).toContain(violation.field);
          if (bad.length === 1) expect(named.map((violation) => violation.field)).toContain(badNames[0]);
          for (const violation of named) expect(violation.rule).toMatch(/^\w+$/);
          expect(await footprint()).toEqual(before);
        }),
        { numRuns: 150 },
      ),
    ));

  it('answers 400 to a body that is not JSON, whatever is wrong with it', () =>
    guard('broken JSON', () =>
      fc.assert(
        fc.asyncProperty(
          fc.oneof(
            fc
              .tuple(fc.constant(JSON.stringify(transferRequest())), fc.double({ min: 0, max: 0.99, noNaN: true }))
              .map(([text, fraction]) => text.slice(0, Math.floor(text.length * fraction))),
            fc.constant(JSON.stringify(transferRequest())).map((text) => `${text}}`),
            fc.constantFrom('{"originId": NaN}', "{'originId': 1}", '{"a":}', '{,}', 'undefined', '\u0000'),
            fc.string({ unit: 'binary', minLength: 1 }).filter((text) => !isJson(text)),
          ),
          async (text) => {
            figures.brokenJson += 1;
            const before = await footprint();
            const answer = await post(text);
            expect({ status: answer.status, text }).toMatchObject({ status: 400 });
            // An empty body (a cut at 0) is a missing request, not broken JSON.
            expect(JSON.parse(answer.text)).toMatchObject({
              code: 'VALIDATION_FAILED',
              violations: [
                {
                  field: '',
                  rule: expect.stringMatching(/^(json|depth|type|required)$/),
                  params: expect.any(Object),
                  message: expect.any(String),
                },
              ],
            });
            expect(await footprint()).toEqual(before);
          },
        ),
        { numRuns: 60 },
      ),
    ));

  it('answers 4xx, never 2xx or 5xx, to any JSON document', () =>
    guard('any JSON', () =>
      fc.assert(
        fc.asyncProperty(fc.json(), async (text) => {
          figures.anyJson += 1;
          const before = await footprint();
          const answer = await post(text);
          expect({ status: answer.status, text }).toMatchObject({ status: expect.any(Number) });
          expect(answer.status >= 400 && answer.status < 500).toBe(true);
          expect(await footprint()).toEqual(before);
        }),
        { numRuns: 100 },
      ),
    ));

  it('answers the approval routes 200 or 4xx, never 5xx, to any JSON, sending and storing nothing', () =>
    guard('approvals', () =>
      fc.assert(
        fc.asyncProperty(
          fc.constantFrom(
            '/admin/transfers/approve',
            '/admin/transfers/reject',
            '/admin/transfers/1/approve',
            '/admin/transfers/1/reject',
          ),
          fc.oneof(
            fc.json(),
            fc
              .record({ originIds: fc.array(fc.oneof(fc.integer(), fc.jsonValue())), reason: fc.jsonValue() })
              .map((body) => JSON.stringify(body)),
          ),
          async (path, text) => {
            figures.approvals += 1;
            const before = await footprint();
            const answer = await hosts.request(`${r.url}${path}`, {
              method: 'POST',
              headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
              body: text,
            });
            // 200: a bulk decision whose every item was refused (nothing here awaits an approval).
            const fine = answer.status === 200 || (answer.status >= 400 && answer.status < 500);
            expect({ path, text, fine }).toEqual({ path, text, fine: true });
            expect(await footprint()).toEqual(before);
          },
        ),
        { numRuns: 150 },
      ),
    ));

  it('answers 400 naming the depth rule to JSON nested deeper than 10, wherever the nesting is', () =>
    guard('deep', () =>
      fc.assert(
        fc.asyncProperty(
          fc.integer({ min: 11, max: 2_500 }),
          fc.constantFrom('[', '{"a":'),
          fc.constantFrom('', '{"from":', '{"body":{"description":'),
          async (depth, open, prefix) => {
            figures.deep += 1;
            const close = open === '[' ? ']' : '}';
            const tail = '}'.repeat((prefix.match(/\{/g) ?? []).length);
            const text = `${prefix}${open.repeat(depth)}1${close.repeat(depth)}${tail}`;
            const answer = await post(text);
            expect({ depth, status: answer.status }).toEqual({ depth, status: 400 });
            expect(JSON.parse(answer.text).violations).toEqual([
              { field: '', rule: 'depth', params: { max: 10 }, message: expect.any(String) },
            ]);
          },
        ),
        { numRuns: 30 },
      ),
    ));

  it('answers 413 naming the size rule to a body over the size limit (16 KiB), and 415 to a wrong content type', () =>
    guard('oversized', async () => {
      const before = await footprint();
      for (const size of [16_500, 100_000, 2_000_000]) {
        figures.oversized += 1;
        const text = requestText(transferRequest({ originId: ++originId }), [
          { field: 'body.description', value: JSON.stringify('x'.repeat(size)) },
        ]);
        const answer = await post(text);
        expect(answer.status).toBe(413);
        expect(JSON.parse(answer.text)).toMatchObject({
          code: 'PAYLOAD_TOO_LARGE',
          violations: [{ field: '', rule: 'size', params: { max: 16 * 1024 }, message: expect.any(String) }],
        });
      }
      figures.oversized += 1;
      const plain = await post(JSON.stringify(transferRequest({ originId: ++originId })), {
        'content-type': 'text/plain',
      });
      expect(plain.status).toBe(415);
      expect(JSON.parse(plain.text)).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE' });
      expect(await footprint()).toEqual(before);
    }));

  it('answers 400 naming the bad path or query parameter', () =>
    guard('parameters', () =>
      fc.assert(
        fc.asyncProperty(
          fc.oneof(
            fc
              .constantFrom('abc', '-1', '0', '1.5', '1e309', '9007199254740993', '%00', 'NaN', '1e3')
              .map((id) => ({ path: `/admin/transfers/${id}`, field: 'originId' })),
            fc
              .constantFrom('0', '-1', '501', 'abc', '1e309', '1.5')
              .map((limit) => ({ path: `/admin/transfers?limit=${limit}`, field: 'limit' })),
            fc
              .constantFrom('done', 'completed', '', 'PENDING%00')
              .map((status) => ({ path: `/admin/transfers?status=${status}`, field: 'status' })),
            fc.constant({ path: `/admin/transfers?after=${'x'.repeat(300)}`, field: 'after' }),
            fc
              .constantFrom('yes', '1', 'FALSE', '')
              .map((value) => ({ path: `/admin/cancellations?acknowledged=${value}`, field: 'acknowledged' })),
            // The audit trail's filters and cursor.
            fc
              .constantFrom('maybe', 'OK', '', 'ok%00')
              .map((outcome) => ({ path: `/admin/audit?outcome=${outcome}`, field: 'outcome' })),
            fc
              .tuple(fc.constantFrom('from', 'to'), fc.constantFrom('yesterday', '2026-13-01', '1e3', 'now', ''))
              .map(([field, value]) => ({ path: `/admin/audit?${field}=${value}`, field })),
            fc
              .constantFrom('0', '-1', 'abc', '9007199254740993')
              .map((value) => ({ path: `/admin/audit?originId=${value}`, field: 'originId' })),
            fc
              .constantFrom('zz', '0', '-1', '1.5', 'x'.repeat(300))
              .map((after) => ({ path: `/admin/audit?after=${after}`, field: 'after' })),
            fc.constant({ path: `/admin/audit?actor=${'a'.repeat(65)}`, field: 'actor' }),
            // The export takes the search's filters, and no page of its own.
            fc
              .constantFrom(
                ['status', 'done'],
                ['amountMin', '1,50'],
                ['createdFrom', 'yesterday'],
                ['cuit', '123'],
                ['sort', 'amount'],
                ['limit', '5'],
                ['after', '1'],
              )
              .map(([field, value]) => ({ path: `/admin/transfers/export.csv?${field}=${value}`, field })),
          ),
          async ({ path, field }) => {
            figures.params += 1;
            const answer = await get(path);
            expect({ path, status: answer.status }).toEqual({ path, status: 400 });
            const named = (JSON.parse(answer.text).violations as { field: string }[]).map((v) => v.field);
            expect({ path, named }).toEqual({ path, named: expect.arrayContaining([field]) });
          },
        ),
        { numRuns: 40 },
      ),
    ));

  /** A batch sent to POST /admin/transfers/batch as the admin token. */
  const postBatch = (body: string, contentType: string, query = '') =>
    hosts.request(`${r.url}/admin/transfers/batch${query}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': contentType },
      body,
    });

  it('answers a batch whose rows each hold one bad cell 200 naming that column in every row, and creates nothing', () =>
    guard('batch, bad cells', () =>
      fc.assert(
        fc.asyncProperty(
          fc.array(badCsvCell, { minLength: 1, maxLength: 5 }),
          fc.boolean(),
          async (badCells, dryRun) => {
            figures.batches += 1;
            const before = await footprint();
            const file = [CSV_HEADER, ...badCells.map((bad) => csvRowWith(++originId, bad))].join('\n');
            const answer = await postBatch(file, 'text/csv', dryRun ? '?dryRun=true' : '');
            expect({ status: answer.status, text: answer.text.slice(0, 300) }).toMatchObject({ status: 200 });
            const rows = JSON.parse(answer.text).rows as { outcome: string; violations?: { field: string }[] }[];
            expect({ file, outcomes: rows.map((row) => row.outcome) }).toEqual({
              file,
              outcomes: badCells.map(() => 'invalid'),
            });
            for (const [index, bad] of badCells.entries()) {
              const named = rows[index].violations?.map((violation) => violation.field);
              expect({ bad, named }).toEqual({ bad, named: expect.arrayContaining([bad.column]) });
            }
            expect(await footprint()).toEqual(before);
          },
        ),
        { numRuns: 60 },
      ),
    ));

  it('answers any batch body 200 or 4xx, never 5xx, and any JSON array of non-requests creates nothing', () =>
    guard('batch, any body', () =>
      fc.assert(
        fc.asyncProperty(
          fc.oneof(
            fc.string({ unit: 'binary' }).map((text) => ({ text, type: 'text/csv' })),
            fc.string({ unit: 'binary' }).map((text) => ({ text: `${CSV_HEADER}\n${text}`, type: 'text/csv' })),
            fc.json().map((text) => ({ text, type: 'application/json' })),
            fc.array(fc.jsonValue()).map((items) => ({ text: JSON.stringify(items), type: 'application/json' })),
          ),
          async ({ text, type }) => {
            figures.batches += 1;
            const before = await footprint();
            const answer = await postBatch(text, type);
            const fine = answer.status === 200 || (answer.status >= 400 && answer.status < 500);
            expect({ text, status: answer.status, fine }).toEqual({ text, status: answer.status, fine: true });
            if (answer.status >= 400) expect(JSON.parse(answer.text).violations.length).toBeGreaterThan(0);
            expect(await footprint()).toEqual(before);
          },
        ),
        { numRuns: 100 },
      ),
    ));

  it('accepts any description without control characters (Unicode included) and keeps it exactly', () =>
    guard('unicode', () =>
      fc.assert(
        fc.asyncProperty(validDescription, async (description) => {
          figures.unicode += 1;
          const id = ++originId;
          const answer = await post(JSON.stringify(transferRequest({ originId: id, description })));
          expect({ description, status: answer.status }).toEqual({ description, status: 201 });
          expect(JSON.parse(answer.text).description).toBe(description);
          expect(JSON.parse((await get(`/admin/transfers/${id}`)).text).description).toBe(description);
        }),
        { numRuns: 40 },
      ),
    ));

  it('the validation names every bad field with its rule', () =>
    guard('DTO, bad fields', () =>
      fc.assert(
        fc.property(badFields, (bad) => {
          figures.dtoInputs += 1;
          const error = violationsOf(JSON.parse(requestText(transferRequest(), bad)));
          const named = error?.violations.map((violation) => violation.field) ?? [];
          expect({ bad, named }).toEqual({ bad, named: expect.arrayContaining(bad.map(({ field }) => field)) });
        }),
        { numRuns: 500 },
      ),
    ));

  it('the validation throws nothing but a validation error naming a field and a rule, whatever the input', () =>
    guard('DTO, any input', () =>
      fc.assert(
        fc.property(fc.oneof(fc.anything(), fc.object()), (input) => {
          figures.dtoInputs += 1;
          for (const violation of violationsOf(input)?.violations ?? []) {
            expect(violation).toEqual({
              field: expect.any(String),
              rule: expect.stringMatching(/^\w+$/),
              params: expect.any(Object),
              message: expect.stringMatching(/./),
            });
            // Values, never prose: a number, a flag, a text, or a list of texts.
            for (const value of Object.values(violation.params)) {
              const values = Array.isArray(value) ? value : [value];
              for (const one of values) expect(['string', 'number', 'boolean']).toContain(typeof one);
            }
          }
        }),
        { numRuns: 1_000 },
      ),
    ));

  it('is still alive and working after all of it', () =>
    guard('alive', async () => {
      // New connections: the pooled ones may have outlived the server's keep-alive timeout meanwhile.
      expect((await r.request('GET', '/health', { token: null })).status).toBe(200);
      const answer = await r.request('POST', '/admin/transfers', { body: transferRequest({ originId: ++originId }) });
      expect(answer.status).toBe(201);
    }));
});

/** The validation error of `input`, or undefined when it is valid; any other error is thrown. */
function violationsOf(input: unknown): TransferValidationError | undefined {
  try {
    validateTransferRequest(input, {});
    return undefined;
  } catch (error) {
    if (error instanceof TransferValidationError && error.violations.length > 0) return error;
    throw error;
  }
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
