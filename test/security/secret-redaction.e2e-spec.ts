import { AdminRefusalAudit } from '@giro/admin';
import { AuditService } from '@giro/transfer-module';
import { describeOnEachEngine } from '../support/engines';
import {
  ADMIN_TOKEN,
  type HttpAnswer,
  startTestReconciler,
  type TestReconciler,
  transferRequest,
} from '../support/reconciler-harness';

// A credential put where it does not belong — the admin token or an API key in a path, a query, X-Request-Id, a
// field name of a body — never reaches a log line, a response header or the audit trail (which every viewer
// reads) in clear: each place of the red-team finding, replayed as it was written. On both engines: the rows
// are the audit store's.

describeOnEachEngine('credentials put in the wrong place', (engine) => {
  let r: TestReconciler;
  let key: string;
  let keyId: string;
  const answers: HttpAnswer[] = [];

  beforeAll(async () => {
    r = await startTestReconciler({ databaseUrl: await engine.createDatabaseUrl() });
    ({ key, keyId } = (await r.request('POST', '/admin/keys', { body: { name: 'ops', role: 'operator' } })).json);
  });
  afterAll(() => r?.close());

  const send = async (...args: Parameters<TestReconciler['request']>) => {
    const answer = await r.request(...args);
    answers.push(answer);
    return answer;
  };
  const auditText = async () => {
    await r.app.get(AdminRefusalAudit).flush();
    return JSON.stringify((await r.app.get(AuditService).list({}, { limit: 500 })).items);
  };
  const secretOf = (apiKey: string) => apiKey.slice(-64);

  it('the admin token in the path: refused, and neither logged nor audited', async () => {
    expect((await send('GET', `/admin/transfers/${ADMIN_TOKEN}`)).status).toBe(400);
    expect((await send('GET', `/admin/nowhere/${encodeURIComponent(ADMIN_TOKEN).replace('t', '%74')}`)).status).toBe(
      404,
    );
    expect((await send('POST', `/admin/transfers/${ADMIN_TOKEN}/refresh`)).status).toBe(400);
    expect(r.logs.text).not.toContain(ADMIN_TOKEN);
    const audit = await auditText();
    expect(audit).not.toContain(ADMIN_TOKEN);
    expect(audit).toContain('GET /admin/nowhere/[redacted]');
  });

  it('the admin token or a key in X-Request-Id: answered, logged and audited redacted', async () => {
    // Every admin answer carries its request id, a plain read's too.
    const plain = await send('GET', '/admin/transfers?limit=1', { headers: { 'x-request-id': 'plain-1' } });
    expect([plain.status, plain.headers.get('x-request-id')]).toEqual([200, 'plain-1']);
    const token = await send('POST', '/admin/reconcile', { headers: { 'x-request-id': ADMIN_TOKEN } });
    expect(token.headers.get('x-request-id')).toBe('[redacted]');
    const keyed = await send('GET', '/admin/transfers/424242', { headers: { 'x-request-id': `req-${key}` } });
    expect(keyed.status).toBe(404);
    expect(keyed.headers.get('x-request-id')).toBe(`req-giro_${keyId}_[redacted]`);
    const audit = await auditText();
    expect(audit).toContain(`"requestId":"req-giro_${keyId}_[redacted]"`);
    expect(audit).toContain('"requestId":"[redacted]"');
    expect(audit).not.toContain(ADMIN_TOKEN);
    expect(audit).not.toContain(secretOf(key));
    expect(r.logs.text).not.toContain(ADMIN_TOKEN);
    expect(r.logs.text).not.toContain(secretOf(key));
  });

  it('a key used as a path parameter (/admin/keys/<key>/revoke): its secret kept by neither the audit nor the logs', async () => {
    // A key is not a key's name: refused as one.
    expect((await send('POST', `/admin/keys/${key}/revoke`)).status).toBe(400);
    expect((await send('POST', `/admin/keys/${ADMIN_TOKEN}/revoke`, { token: key })).status).toBe(403);
    const rows = (await r.app.get(AuditService).list({ action: 'key.revoke' }, { limit: 10 })).items;
    expect(rows.map((row) => [row.statusCode, row.target])).toEqual([
      [403, '[redacted]'],
      [400, `giro_${keyId}_[redacted]`],
    ]);
    expect(JSON.stringify(rows)).not.toContain(secretOf(key));
    expect(r.logs.text).not.toContain(secretOf(key));
  });

  it('a secret as a field name of a body or a query: refused, and the audit keeps no name the API does not know', async () => {
    const misplaced = 'hunter2-password-as-a-field';
    const created = await send('POST', '/admin/transfers', {
      body: { ...transferRequest({ originId: 5501 }), [misplaced]: 1, [key]: 2 },
    });
    expect(created.status).toBe(400);
    expect(created.text).toContain(misplaced);
    const keys = await send('POST', '/admin/keys', { body: { name: 'sock', role: 'viewer', [ADMIN_TOKEN]: true } });
    expect(keys.status).toBe(400);
    const query = await send(
      'GET',
      `/admin/transfers?${misplaced}=1&access_token=${ADMIN_TOKEN}&after=${key}&status=${ADMIN_TOKEN}`,
    );
    expect(query.status).toBe(400);
    const audit = await auditText();
    expect(audit).toContain('(a field the API does not know) is not a known field');
    for (const secret of [misplaced, ADMIN_TOKEN, secretOf(key)]) expect(audit).not.toContain(secret);
    expect(r.logs.text).not.toContain(ADMIN_TOKEN);
    expect(r.logs.text).not.toContain(secretOf(key));
  });

  it('no response header ever carried one', () => {
    expect(answers.length).toBeGreaterThan(8);
    for (const answer of answers) {
      const headers = JSON.stringify([...answer.headers.entries()]);
      expect(headers).not.toContain(ADMIN_TOKEN);
      expect(headers).not.toContain(secretOf(key));
    }
  });
});
