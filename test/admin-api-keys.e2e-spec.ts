import { startTestReconciler, type TestReconciler, transferRequest } from '@test-support/reconciler-harness';

// The admin API's keys against giro itself (the reconciler in process, a sandbox bank, SQLite): made with the
// bootstrap ADMIN_TOKEN through POST /admin/keys, used with their roles, listed without secrets, revoked — and never
// written to the logs, whatever a client does with them. Each key has its own rate-limit budget.

describe('admin API keys', () => {
  let r: TestReconciler;
  const made: string[] = [];

  beforeAll(async () => {
    r = await startTestReconciler();
  });
  afterAll(() => r.close());

  async function createKey(name: string, role: string, token?: string) {
    const answer = await r.request('POST', '/admin/keys', { body: { name, role }, ...(token && { token }) });
    if (answer.status === 201) made.push(answer.json.key);
    return answer;
  }

  it('creates a key with the admin token, shows it once, and lists keys without secrets', async () => {
    const created = await createKey('ops', 'operator');
    expect(created.status).toBe(201);
    expect(created.json).toEqual({
      keyId: expect.stringMatching(/^[0-9a-f]{16}$/),
      name: 'ops',
      role: 'operator',
      active: true,
      createdAt: expect.any(String),
      revokedAt: null,
      createdBy: 'admin-token',
      key: expect.stringMatching(/^giro_[0-9a-f]{16}_[0-9a-f]{64}$/),
    });
    const listed = await r.request('GET', '/admin/keys');
    expect(listed.status).toBe(200);
    expect(listed.json).toEqual([{ ...created.json, key: undefined }].map(({ key: _key, ...view }) => view));
    expect(listed.text).not.toContain(created.json.key.slice(-64));
  });

  it('lets each key do what its role allows, and answers 403 naming the role needed otherwise', async () => {
    const viewer = (await createKey('auditor', 'viewer')).json.key;
    const operator = (await createKey('payments-bot', 'operator')).json.key;
    const approver = (await createKey('checker', 'approver')).json.key;

    expect((await r.request('GET', '/admin/transfers', { token: viewer })).status).toBe(200);
    const refused = await r.request('POST', '/admin/transfers', { token: viewer, body: transferRequest() });
    expect(refused.status).toBe(403);
    expect(refused.json).toEqual({
      statusCode: 403,
      code: 'FORBIDDEN',
      error: 'Forbidden',
      message: 'this route needs the operator role (operator or admin); key "auditor" has viewer',
      requiredRole: 'operator',
      role: 'viewer',
    });
    expect((await r.request('GET', '/admin/transfers', { token: approver })).status).toBe(200);
    expect((await r.request('POST', '/admin/transfers', { token: approver, body: transferRequest() })).status).toBe(
      403,
    );

    const created = await r.request('POST', '/admin/transfers', { token: operator, body: transferRequest() });
    expect(created.status).toBe(201);
    expect((await r.request('GET', `/admin/transfers/${created.json.originId}`, { token: viewer })).status).toBe(200);

    const keyAttempt = await createKey('sneaky', 'admin', operator);
    expect(keyAttempt.status).toBe(403);
    expect(keyAttempt.json).toMatchObject({ requiredRole: 'admin', role: 'operator' });
    expect((await r.request('GET', '/admin/keys', { token: viewer })).status).toBe(403);
    expect((await r.request('POST', '/admin/keys/ops/revoke', { token: operator })).status).toBe(403);
  });

  it('lets an admin key manage keys too', async () => {
    const admin = (await createKey('second-admin', 'admin')).json.key;
    expect((await createKey('made-by-admin-key', 'viewer', admin)).status).toBe(201);
    expect((await r.request('POST', '/admin/keys/made-by-admin-key/revoke', { token: admin })).status).toBe(200);
  });

  it('refuses a revoked key at once with 401, keeps it listed as revoked, and revokes idempotently', async () => {
    const key = (await createKey('temporary', 'viewer')).json.key;
    expect((await r.request('GET', '/admin/transfers', { token: key })).status).toBe(200);
    const revoked = await r.request('POST', '/admin/keys/temporary/revoke');
    expect(revoked.status).toBe(200);
    expect(revoked.json).toMatchObject({ name: 'temporary', active: false, revokedAt: expect.any(String) });
    const refused = await r.request('GET', '/admin/transfers', { token: key });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toBe('Bearer realm="giro-admin"');
    expect(refused.json.message).toBe('invalid bearer token: unknown or revoked');
    expect((await r.request('POST', '/admin/keys/temporary/revoke')).json.revokedAt).toBe(revoked.json.revokedAt);
    const listed = (await r.request('GET', '/admin/keys')).json as { name: string; active: boolean }[];
    expect(listed.find((entry) => entry.name === 'temporary')).toMatchObject({ active: false });
  });

  it("takes a person's name for a key, accents and spaces kept, and revokes it by that name", async () => {
    const created = await createKey('Ana Gómez', 'viewer');
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({ name: 'Ana Gómez', role: 'viewer', keyId: expect.any(String) });
    const revoked = await r.request('POST', `/admin/keys/${encodeURIComponent('Ana Gómez')}/revoke`);
    expect(revoked.json).toMatchObject({ name: 'Ana Gómez', active: false });
  });

  it('names the field and the rule of a bad request, and changes nothing', async () => {
    const before = (await r.request('GET', '/admin/keys')).json.length;
    const badRole = await createKey('someone', 'root');
    expect(badRole.status).toBe(400);
    expect(badRole.json.violations).toEqual([
      {
        field: 'role',
        rule: 'role',
        params: { allowed: ['viewer', 'operator', 'approver', 'admin'] },
        message: 'must be one of viewer, operator, approver, admin',
      },
    ]);
    const badName = await createKey('Some  One', 'viewer');
    expect(badName.json).toMatchObject({ code: 'VALIDATION_FAILED' });
    expect(badName.json.violations).toEqual([expect.objectContaining({ field: 'name', rule: 'key_name' })]);
    const ops = (await r.request('GET', '/admin/keys')).json.find((key: { name: string }) => key.name === 'ops');
    for (const [name, reason] of [
      ['cli', 'reserved'],
      ['admin-token', 'reserved'],
      [ops.keyId, 'key_id'],
      ['giro_ops', 'key_id'],
    ]) {
      const confusable = await createKey(name, 'viewer');
      expect({ name, status: confusable.status, violations: confusable.json.violations }).toEqual({
        name,
        status: 400,
        violations: [{ field: 'name', rule: 'key_name', params: { reason, name }, message: expect.any(String) }],
      });
    }
    const extra = await r.request('POST', '/admin/keys', { body: { name: 'x', role: 'viewer', key: 'mine' } });
    expect(extra.json.violations).toEqual([expect.objectContaining({ field: 'key', rule: 'unknown_field' })]);
    const taken = await createKey('ops', 'viewer');
    expect(taken.status).toBe(409);
    expect(taken.json).toMatchObject({ statusCode: 409, code: 'API_KEY_NAME_TAKEN', error: 'Conflict', name: 'ops' });
    const unknown = await r.request('POST', '/admin/keys/nobody/revoke');
    expect(unknown.status).toBe(404);
    expect(unknown.json).toMatchObject({
      statusCode: 404,
      code: 'API_KEY_NOT_FOUND',
      message: 'no API key is named "nobody"',
      name: 'nobody',
    });
    expect((await r.request('GET', '/admin/keys')).json.length).toBe(before);
  });

  it('never writes a key to the logs, wherever a client puts one', async () => {
    const key = (await createKey('careless', 'operator')).json.key;
    await r.request('POST', `/admin/keys/${key}/revoke`);
    await r.request('GET', `/admin/transfers?token=${key}`, { token: null });
    await r.request('GET', `/admin/transfers/${key}`, { token: key });
    await r.request('GET', '/admin/transfers', { token: null, headers: { 'x-api-key': key } });
    await r.request('POST', '/admin/keys', { body: { name: key, role: 'viewer' } });
    await r.request('POST', '/admin/transfers', { token: key, body: transferRequest({ description: key }) });
    expect(made.length).toBeGreaterThan(0);
    for (const secret of made.map((made) => made.slice(-64))) {
      expect(r.logs.text.split('\n').filter((line) => line.includes(secret))).toEqual([]);
    }
    // The public id is kept, so a reader can tell which key was misused.
    expect(r.logs.text).toContain(`${key.slice(0, 22)}[redacted]`);
  });
});

describe('admin API keys and the rate limit', () => {
  const LIMIT = 4;
  let r: TestReconciler;
  beforeAll(async () => {
    r = await startTestReconciler({ adminRateLimitPerMinute: LIMIT });
  });
  afterAll(() => r.close());

  it('gives each key a budget of its own, and the admin token its own', async () => {
    // Two key creations use two of the admin token's requests.
    const first = (await r.request('POST', '/admin/keys', { body: { name: 'first', role: 'viewer' } })).json.key;
    const second = (await r.request('POST', '/admin/keys', { body: { name: 'second', role: 'viewer' } })).json.key;
    for (let n = 0; n < LIMIT; n++) expect((await r.request('GET', '/admin/keys', { token: first })).status).toBe(403);
    const limited = await r.request('GET', '/admin/transfers', { token: first });
    expect(limited.status).toBe(429);
    expect(limited.json.message).toMatch(/^too many requests: 4 a minute with this token/);
    expect((await r.request('GET', '/admin/transfers', { token: second })).status).toBe(200);
    expect((await r.request('GET', '/admin/transfers')).status).toBe(200);
  });
});
