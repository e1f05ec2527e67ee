import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AdminRefusalAudit } from '@giro/admin';
import { AuditService, type AuditView } from '@giro/transfer-module';
import Database from 'better-sqlite3';
import { describeOnEachEngine } from './support/engines';
import { startTestReconciler, type TestReconciler, transferRequest } from './support/reconciler-harness';
import { waitUntil } from './support/wait-until';

// Every refusal of an admin request is in the audit trail, with the key that tried it when it was valid, from
// wherever it came: the body reader (bad JSON, too deep, too large, not JSON), the router, the role guard, a
// pipe, a route, the rate limit — a flood of 429s summarised, so it adds a few rows, not one per request. The
// reads that act (the bank's raw answer, which moves the movement's next query; the CSV export) are recorded as
// actions. On both engines: the rows are the audit store's.

/** Per credential and minute: the flood below goes past it, the other tests stay under it. */
const RATE_LIMIT = 60;

describeOnEachEngine('admin refusals in the audit trail', (engine) => {
  let r: TestReconciler;

  beforeAll(async () => {
    r = await startTestReconciler({
      databaseUrl: await engine.createDatabaseUrl(),
      adminRateLimitPerMinute: RATE_LIMIT,
      limits: { default: { perTransfer: '5000.00' } },
    });
  });
  afterAll(() => r?.close());

  const trail = () => r.app.get(AuditService);
  const refusedRows = async (filter: { actor?: string } = {}): Promise<AuditView[]> =>
    (await trail().list({ ...filter, outcome: 'refused' }, { limit: 500 })).items;
  const createKey = async (name: string, role: string) =>
    (await r.request('POST', '/admin/keys', { body: { name, role } })).json as { key: string; keyId: string };

  it('records the bodies refused before any route ran — bad JSON, too deep, too large, not JSON — with the key', async () => {
    const operator = await createKey('bodies', 'operator');
    const post = (rawBody: string, headers: Record<string, string> = {}) =>
      r.request('POST', '/admin/transfers', { token: operator.key, rawBody, headers });
    const statuses = [
      (await post('{"originId":')).status,
      (await post('['.repeat(3_000))).status,
      (await post(JSON.stringify({ description: 'x'.repeat(20_000) }))).status,
      (await post('{}', { 'content-type': 'text/plain' })).status,
    ];
    expect(statuses).toEqual([400, 400, 413, 415]);
    const rows = await refusedRows({ actor: 'bodies' });
    expect(rows.map((row) => [row.statusCode, row.action, row.actor])).toEqual(
      [415, 413, 400, 400].map((status) => [
        status,
        'transfer.create',
        { keyId: operator.keyId, name: 'bodies', role: 'operator' },
      ]),
    );
    expect(rows.map((row) => row.error)).toEqual([
      expect.stringContaining('Content-Type must be application/json'),
      expect.stringContaining('must be at most 16384 bytes'),
      expect.stringContaining('must not nest'),
      expect.stringContaining('is not valid JSON'),
    ]);
    expect(rows.every((row) => row.clientAddress === '127.0.0.1' && row.requestId.length > 0)).toBe(true);
  });

  it('records the refusals of reads and of unknown routes: 401, 403, 404, 400, with who when the key was valid', async () => {
    const viewer = await createKey('reader', 'viewer');
    const answers = [
      await r.request('GET', '/admin/keys', { token: viewer.key }),
      await r.request('GET', '/admin/transfers/98765', { token: viewer.key }),
      await r.request('GET', '/admin/audit?outcome=maybe', { token: viewer.key }),
      await r.request('GET', '/admin/nowhere/at-all', { token: viewer.key }),
    ];
    expect(answers.map((answer) => answer.status)).toEqual([403, 404, 400, 404]);
    const rows = await refusedRows({ actor: 'reader' });
    expect(rows.map((row) => [row.statusCode, row.action, row.originId])).toEqual([
      [404, 'GET /admin/nowhere/at-all', null],
      [400, 'GET /admin/audit', null],
      [404, 'GET /admin/transfers/:originId', 98765],
      [403, 'GET /admin/keys', null],
    ]);
    // The request id answered is the one recorded.
    expect(rows[0]?.requestId).toBe(answers[3]?.headers.get('x-request-id'));

    const anonymous = await r.request('GET', '/admin/transfers', {
      token: null,
      headers: { 'x-request-id': 'anon-1' },
    });
    expect(anonymous.status).toBe(401);
    const [row] = (await refusedRows()).filter((candidate) => candidate.requestId === 'anon-1');
    expect(row).toMatchObject({ actor: null, statusCode: 401, action: 'GET /admin/transfers' });
  });

  it('records a conflict (409) and a limit passed (422) once each, by the route that refused them', async () => {
    expect((await r.request('POST', '/admin/keys', { body: { name: 'bodies', role: 'viewer' } })).status).toBe(409);
    const tooMuch = transferRequest({ originId: 4301, amount: '5000.01' });
    expect((await r.request('POST', '/admin/transfers', { body: tooMuch })).status).toBe(422);
    const rows = (await refusedRows()).filter((row) => row.statusCode === 409 || row.statusCode === 422);
    expect(rows.map((row) => [row.statusCode, row.action, row.originId])).toEqual([
      [422, 'transfer.create', null],
      [409, 'key.create', null],
    ]);
  });

  it('summarises a flood of 429s: one row when it starts, one counting the rest', async () => {
    const flooder = await createKey('flooder', 'viewer');
    const FLOOD = 300;
    const statuses: number[] = [];
    for (let index = 0; index < FLOOD; index++) {
      statuses.push((await r.request('GET', '/admin/transfers?limit=1', { token: flooder.key })).status);
    }
    const refused = statuses.filter((status) => status === 429).length;
    expect(refused).toBeGreaterThanOrEqual(FLOOD - RATE_LIMIT);
    expect(await refusedRows({ actor: 'flooder' })).toEqual([
      expect.objectContaining({
        statusCode: 429,
        action: 'GET /admin/transfers',
        error: expect.stringContaining('too many requests'),
      }),
    ]);

    await r.app.get(AdminRefusalAudit).flush();
    const rows = await refusedRows({ actor: 'flooder' });
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({
      statusCode: 429,
      actor: { keyId: flooder.keyId, name: 'flooder', role: 'viewer' },
      requestId: expect.stringMatching(/^summary-/),
      error: expect.stringContaining(`${refused - 1} more refused 429 between`),
    });
  });

  it('keeps an anonymous flood bounded too: its 401s, then its 429s', async () => {
    const before = (await refusedRows()).length;
    for (let index = 0; index < 200; index++) {
      await r.request('GET', '/admin/transfers', { token: 'not-a-token-of-anyone-0123' });
    }
    await r.app.get(AdminRefusalAudit).flush();
    const added = (await refusedRows()).slice(0, (await refusedRows()).length - before);
    expect(added.every((row) => row.actor === null)).toBe(true);
    // 20 rows of 401 and one count of the rest, one row of 429 and one count of the rest.
    expect(added.length).toBeLessThanOrEqual(23);
    expect(new Set(added.map((row) => row.statusCode))).toEqual(new Set([401, 429]));
  });

  it("records the bank's raw answer and the export as the actions they are", async () => {
    expect((await r.request('POST', '/admin/transfers', { body: transferRequest({ originId: 4401 }) })).status).toBe(
      201,
    );
    expect((await r.request('GET', '/admin/transfers/4401/raw')).status).toBe(429);
    r.clock.advance(5_000);
    expect((await r.request('GET', '/admin/transfers/4401/raw')).status).toBe(200);
    const raw = (await trail().list({ action: 'transfer.raw' }, { limit: 10 })).items;
    expect(raw.map((row) => [row.originId, row.outcome, row.statusCode])).toEqual([
      [4401, 'ok', null],
      [4401, 'refused', 429],
    ]);
    expect(raw[0]?.actor).toMatchObject({ keyId: 'admin-token' });

    const exported = await r.request('GET', '/admin/transfers/export.csv?status=COMPLETED', {
      headers: { 'x-request-id': 'export-1' },
    });
    expect(exported.status).toBe(200);
    expect(exported.headers.get('x-request-id')).toBe('export-1');
    // The row follows the file's last byte: the handler wrote the answer itself.
    const exports = async () => (await trail().list({ action: 'transfer.export' }, { limit: 10 })).items;
    await waitUntil(async () => (await exports()).length > 0, 10_000);
    expect(await exports()).toEqual([
      expect.objectContaining({
        requestId: 'export-1',
        outcome: 'ok',
        actor: expect.objectContaining({ keyId: 'admin-token' }),
      }),
    ]);
  });

  it('keeps an intact chain', async () => {
    expect(await trail().verify()).toEqual({ intact: true, rows: expect.any(Number) });
  });
});

describe('admin refusals counted when the reconciler stops', () => {
  const dir = mkdtempSync(join(tmpdir(), 'giro-refusals-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('writes the count of a flood not yet summarised before the database closes', async () => {
    const file = join(dir, 'giro.sqlite');
    const r = await startTestReconciler({ databaseUrl: `sqlite:${file}`, adminRateLimitPerMinute: 5 });
    const statuses: number[] = [];
    try {
      for (let index = 0; index < 40; index++) statuses.push((await r.request('GET', '/admin/transfers')).status);
    } finally {
      await r.close();
    }
    expect(statuses.filter((status) => status === 429)).toHaveLength(35);
    const database = new Database(file, { readonly: true });
    try {
      const rows = database
        .prepare('select request_id, error from giro_audit where status_code = 429 order by seq')
        .all() as { request_id: string; error: string }[];
      expect(rows).toHaveLength(2);
      expect(rows[1]?.request_id).toMatch(/^summary-/);
      expect(rows[1]?.error).toContain('34 more refused 429 between');
    } finally {
      database.close();
    }
  });
});
