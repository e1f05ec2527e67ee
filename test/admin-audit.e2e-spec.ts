import { AuditService } from '@giro/transfer-module';
import { startTestReconciler, type TestReconciler, transferRequest } from '@test-support/reconciler-harness';

// The audit trail through the admin API against giro itself (the reconciler in process, a sandbox bank, SQLite):
// each mutating request leaves its row — who (key id, name, role), what, before and after, the request id and the
// client address, the outcome —, refusals included, and GET /admin/audit reads them back with filters.

describe('admin audit trail', () => {
  let r: TestReconciler;

  beforeAll(async () => {
    r = await startTestReconciler();
  });
  afterAll(() => r.close());

  const rows = async (query: string) => {
    const answer = await r.request('GET', `/admin/audit?${query}`);
    expect(answer.status).toBe(200);
    return answer.json.items;
  };

  it('records a key created through the API with its actor, request id and client address, never the key', async () => {
    const created = await r.request('POST', '/admin/keys', {
      body: { name: 'ops', role: 'operator' },
      headers: { 'x-request-id': 'req-key-ops' },
    });
    expect(created.status).toBe(201);
    expect(created.headers.get('x-request-id')).toBe('req-key-ops');
    const [row] = await rows('action=key.create');
    expect(row).toEqual({
      seq: expect.any(Number),
      at: expect.any(String),
      actor: { keyId: 'admin-token', name: 'admin-token', role: 'admin' },
      action: 'key.create',
      originId: null,
      target: 'ops',
      before: null,
      after: expect.objectContaining({ keyId: created.json.keyId, name: 'ops', role: 'operator' }),
      requestId: 'req-key-ops',
      clientAddress: '127.0.0.1',
      outcome: 'ok',
      statusCode: null,
      error: null,
      prevHash: expect.stringMatching(/^[0-9a-f]{64}$/),
      hash: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    const all = await r.request('GET', '/admin/audit');
    expect(all.text).not.toContain(created.json.key.slice(-64));
  });

  it('records an acknowledgement with before and after, and a repeat as asked without a change', async () => {
    const operator = (await r.request('POST', '/admin/keys', { body: { name: 'acker', role: 'operator' } })).json;
    const failed = await r.request('POST', '/admin/transfers', {
      token: operator.key,
      body: transferRequest({ originId: 7301, description: 'refused [reject]' }),
    });
    expect(failed.json.status).toBe('FAILED');
    for (const requestId of ['req-ack-1', 'req-ack-2']) {
      const acked = await r.request('POST', '/admin/cancellations/7301/ack', {
        token: operator.key,
        body: { reference: 'REG-7301' },
        headers: { 'x-request-id': requestId },
      });
      expect(acked.status).toBe(200);
    }
    const acks = await rows('originId=7301&action=cancellation.ack');
    expect(acks).toEqual([
      expect.objectContaining({ requestId: 'req-ack-2', originId: 7301, outcome: 'ok', before: null, after: null }),
      expect.objectContaining({
        requestId: 'req-ack-1',
        actor: { keyId: operator.keyId, name: 'acker', role: 'operator' },
        outcome: 'ok',
        before: { acknowledgedAt: null, reference: null, acknowledgedBy: null },
        after: expect.objectContaining({
          reference: 'REG-7301',
          acknowledgedBy: { keyId: operator.keyId, name: 'acker' },
        }),
      }),
    ]);
    expect((await rows(`actor=acker`)).map((row: { action: string }) => row.action)).toContain('cancellation.ack');
  });

  it('records refusals: 403 with the key, 401 without one, a failed request with its status', async () => {
    const viewer = (await r.request('POST', '/admin/keys', { body: { name: 'looker', role: 'viewer' } })).json;
    expect((await r.request('POST', '/admin/transfers', { token: viewer.key, body: transferRequest() })).status).toBe(
      403,
    );
    expect((await r.request('POST', '/admin/keys/ops/revoke', { token: null })).status).toBe(401);
    expect((await r.request('POST', '/admin/keys/nobody/revoke')).status).toBe(404);
    const refused = await rows('outcome=refused');
    expect(refused.slice(0, 3)).toEqual([
      expect.objectContaining({
        action: 'key.revoke',
        statusCode: 404,
        actor: expect.objectContaining({ keyId: 'admin-token' }),
      }),
      expect.objectContaining({ action: 'key.revoke', target: 'ops', statusCode: 401, actor: null }),
      expect.objectContaining({
        statusCode: 403,
        actor: { keyId: viewer.keyId, name: 'looker', role: 'viewer' },
        error: expect.stringContaining('needs the operator role'),
      }),
    ]);
  });

  it('pages newest first and names a bad filter', async () => {
    const first = await r.request('GET', '/admin/audit?limit=2');
    expect(first.json.items).toHaveLength(2);
    const second = await r.request('GET', `/admin/audit?limit=2&after=${first.json.nextCursor}`);
    expect(second.json.items[0].seq).toBeLessThan(first.json.items[1].seq);
    const bad = await r.request('GET', '/admin/audit?outcome=maybe&from=yesterday');
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('outcome must be one of ok, refused');
    expect(bad.text).toContain('from must be an ISO 8601 date-time');
    expect((await r.request('GET', '/admin/audit?after=zz')).status).toBe(400);
  });

  it('keeps an intact chain', async () => {
    expect(await r.app.get(AuditService).verify()).toEqual({ intact: true, rows: expect.any(Number) });
  });
});
