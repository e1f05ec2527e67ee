import { ADMIN_TOKEN, startTestReconciler, type TestReconciler, transferRequest } from './support/reconciler-harness';

// The admin API (packages/admin/README.md) over HTTP, against an in-process reconciler, an in-process sandbox bank
// and an SQLite file. One manual clock drives both: `clock.advance` is how time passes.

const ADMIN_ROUTES: [method: string, path: string][] = [
  ['POST', '/admin/transfers'],
  ['GET', '/admin/transfers'],
  ['GET', '/admin/transfers/1'],
  ['POST', '/admin/transfers/1/refresh'],
  ['POST', '/admin/reconcile'],
  ['GET', '/admin/cancellations'],
  ['POST', '/admin/cancellations/1/ack'],
];

describe('reconciler admin API', () => {
  let r: TestReconciler;
  beforeAll(async () => {
    r = await startTestReconciler();
  });
  afterAll(() => r.close());

  describe('authentication', () => {
    it.each(ADMIN_ROUTES)(
      '%s %s answers 401 without a token, with a wrong one and with another scheme',
      async (method, path) => {
        for (const attempt of [
          { token: null },
          { token: 'wrong-token-of-the-same-kind' },
          { token: ADMIN_TOKEN.slice(0, -1) },
          { token: null, headers: { authorization: `Basic ${ADMIN_TOKEN}` } },
        ]) {
          const answer = await r.request(method, path, {
            ...attempt,
            body: method === 'POST' ? transferRequest() : undefined,
          });
          expect(answer.status).toBe(401);
          expect(answer.headers.get('www-authenticate')).toMatch(/^Bearer/);
          expect(answer.text).not.toContain(ADMIN_TOKEN);
        }
      },
    );

    it('refuses an unauthenticated create without storing or sending anything', async () => {
      const before = r.bank.counters().processed;
      await r.request('POST', '/admin/transfers', {
        body: transferRequest({ originId: 777 }),
        token: 'nope-nope-nope-nope',
      });
      expect((await r.request('GET', '/admin/transfers/777')).status).toBe(404);
      expect(r.bank.counters().processed).toBe(before);
    });

    it('leaves /health, /metrics and /docs open', async () => {
      for (const path of ['/health', '/metrics', '/docs']) {
        expect((await r.request('GET', path, { token: null })).status).toBe(200);
      }
    });
  });

  describe('POST /admin/transfers', () => {
    it('creates a transfer (201), allocating the originId when absent, and sends it to the bank', async () => {
      const created = await r.request('POST', '/admin/transfers', { body: transferRequest() });
      expect(created.status).toBe(201);
      const movement = created.json;
      expect(Number.isSafeInteger(movement.originId)).toBe(true);
      expect(movement).toMatchObject({
        status: 'CREATED',
        amount: '1234.50',
        currencyId: '032',
        cancellation: null,
        lastError: null,
      });
      expect(movement.networkId).toEqual(expect.any(String));
      expect(movement.history.map((h: { to: string }) => h.to)).toEqual(['PENDING', 'CREATED']);
      expect(r.bank.ledger.entry(movement.originId)?.status).toBe('CREATED');
    });

    it('accepts the amount as a JSON number and stores it as a 2-decimal string', async () => {
      const created = await r.request('POST', '/admin/transfers', {
        body: transferRequest({ originId: 1100, amount: 99.9 }),
      });
      expect(created.status).toBe(201);
      expect(created.json.amount).toBe('99.90');
    });

    it('answers 200 with the stored movement for the same originId and payload, sending nothing again', async () => {
      const request = transferRequest({ originId: 1001 });
      expect((await r.request('POST', '/admin/transfers', { body: request })).status).toBe(201);
      const processed = r.bank.counters().processed;
      const replay = await r.request('POST', '/admin/transfers', { body: request });
      expect(replay.status).toBe(200);
      expect(replay.json).toMatchObject({ originId: 1001, status: 'CREATED' });
      expect(r.bank.counters()).toMatchObject({ processed, duplicates: 0 });
    });

    it('answers 409 for the same originId with another payload, and never sends it', async () => {
      expect((await r.request('POST', '/admin/transfers', { body: transferRequest({ originId: 1002 }) })).status).toBe(
        201,
      );
      const processed = r.bank.counters().processed;
      const conflict = await r.request('POST', '/admin/transfers', {
        body: transferRequest({ originId: 1002, amount: '1.00' }),
      });
      expect(conflict.status).toBe(409);
      expect(conflict.json).toMatchObject({ statusCode: 409, code: 'TRANSFER_CONFLICT', originId: 1002 });
      expect(conflict.json.message).toContain('1002');
      expect(r.bank.counters()).toMatchObject({ processed, duplicates: 0 });
      expect((await r.request('GET', '/admin/transfers/1002')).json.amount).toBe('1234.50');
    });

    it('answers 400 naming every bad field and its rule, and stores and sends nothing', async () => {
      const request = transferRequest({ originId: 1003, amount: '12.345' });
      const body = {
        ...request,
        from: 'an account',
        to: {
          ...request.to,
          address: `${request.to.address.slice(0, 21)}${(Number(request.to.address[21]) + 1) % 10}`,
        },
        body: { ...request.body, tip: 5 },
        extra: true,
      };
      const processed = r.bank.counters().processed;
      const answer = await r.request('POST', '/admin/transfers', { body });
      expect(answer.status).toBe(400);
      expect(answer.json.violations).toEqual(
        expect.arrayContaining([
          { field: 'extra', rule: 'unknown_field', params: expect.any(Object), message: 'is not a known field' },
          {
            field: 'from',
            rule: 'type',
            params: { expected: 'object', actual: 'string' },
            message: 'must be an object, got string',
          },
          {
            field: 'to.address',
            rule: 'cbu_cvu',
            params: expect.objectContaining({ reason: expect.stringMatching(/^check_digits?$/) }),
            message: expect.stringContaining('check digit'),
          },
          { field: 'body.tip', rule: 'unknown_field', params: expect.any(Object), message: 'is not a known field' },
          { field: 'body.amount', rule: 'amount', params: expect.any(Object), message: expect.stringContaining('2') },
        ]),
      );
      expect(answer.json.violations).toHaveLength(5);
      expect(answer.json.message).toContain('body.amount');
      expect((await r.request('GET', '/admin/transfers/1003')).status).toBe(404);
      expect(r.bank.counters().processed).toBe(processed);
    });

    it('names the field the service refuses beyond the DTO (the description length)', async () => {
      const request = transferRequest({ description: 'x'.repeat(101) });
      const answer = await r.request('POST', '/admin/transfers', { body: request });
      expect(answer.status).toBe(400);
      expect(answer.json.violations).toEqual([expect.objectContaining({ field: 'body.description', rule: 'length' })]);
    });

    it('refuses a body over the size limit (413) and one that is not JSON (400)', async () => {
      const large = await r.request('POST', '/admin/transfers', {
        rawBody: JSON.stringify({ pad: 'x'.repeat(20_000) }),
      });
      expect(large.status).toBe(413);
      const broken = await r.request('POST', '/admin/transfers', { rawBody: '{"originId": ' });
      expect(broken.status).toBe(400);
    });
  });

  describe('GET /admin/transfers/:originId', () => {
    it('returns the movement with its status history and cancellation', async () => {
      await r.request('POST', '/admin/transfers', { body: transferRequest({ originId: 1200 }) });
      const answer = await r.request('GET', '/admin/transfers/1200');
      expect(answer.status).toBe(200);
      expect(answer.json).toMatchObject({ originId: 1200, status: 'CREATED', cancellation: null, anomalies: [] });
      expect(answer.json.history).toEqual([
        expect.objectContaining({ from: null, to: 'PENDING', source: 'intent' }),
        expect.objectContaining({ from: 'PENDING', to: 'CREATED', source: 'create' }),
      ]);
    });

    it('answers 404 for an unknown originId and 400 naming originId for a malformed one', async () => {
      const missing = await r.request('GET', '/admin/transfers/999999');
      expect(missing.status).toBe(404);
      expect(missing.json).toMatchObject({ originId: 999999 });
      for (const bad of ['abc', '0', '9007199254740992']) {
        const answer = await r.request('GET', `/admin/transfers/${bad}`);
        expect(answer.status).toBe(400);
        expect(answer.json.violations).toEqual([expect.objectContaining({ field: 'originId', rule: 'origin_id' })]);
      }
    });
  });

  describe('GET /admin/transfers', () => {
    it('pages through every movement in originId order with the cursor', async () => {
      for (const originId of [1301, 1302, 1303, 1304, 1305]) {
        await r.request('POST', '/admin/transfers', { body: transferRequest({ originId }) });
      }
      const seen: number[] = [];
      let after: string | null = null;
      do {
        const query: string = after === null ? '?limit=2' : `?limit=2&after=${encodeURIComponent(after)}`;
        const page = await r.request('GET', `/admin/transfers${query}`);
        expect(page.status).toBe(200);
        expect(page.json.items.length).toBeLessThanOrEqual(2);
        seen.push(...page.json.items.map((item: { originId: number }) => item.originId));
        after = page.json.nextCursor;
      } while (after !== null);
      expect(seen).toEqual([...seen].sort((a, b) => a - b));
      expect(new Set(seen).size).toBe(seen.length);
      expect(seen).toEqual(expect.arrayContaining([1301, 1302, 1303, 1304, 1305]));
      const all = await r.request('GET', '/admin/transfers?limit=500');
      expect(all.json.items).toHaveLength(seen.length);
      expect(all.json.nextCursor).toBeNull();
    });

    it('filters by status', async () => {
      await r.request('POST', '/admin/transfers', {
        body: transferRequest({ originId: 1310, description: 'refused [reject]' }),
      });
      const failed = await r.request('GET', '/admin/transfers?status=FAILED');
      expect(failed.json.items.map((item: { originId: number }) => item.originId)).toContain(1310);
      expect(failed.json.items.every((item: { status: string }) => item.status === 'FAILED')).toBe(true);
      const created = await r.request('GET', '/admin/transfers?status=CREATED&limit=500');
      expect(created.json.items.map((item: { originId: number }) => item.originId)).not.toContain(1310);
    });

    it('answers 400 naming the bad query parameter', async () => {
      const cases: [query: string, field: string][] = [
        ['status=SENT', 'status'],
        ['limit=0', 'limit'],
        ['limit=501', 'limit'],
        ['limit=ten', 'limit'],
        ['after=not-a-cursor', 'after'],
        ['page=2', 'page'],
      ];
      for (const [query, field] of cases) {
        const answer = await r.request('GET', `/admin/transfers?${query}`);
        expect(answer.status).toBe(400);
        expect(answer.json.violations).toEqual([expect.objectContaining({ field })]);
      }
    });
  });

  describe('POST /admin/transfers/:originId/refresh', () => {
    it('answers 429 with Retry-After sooner than the polling rule allows, and queries the bank once it does', async () => {
      await r.request('POST', '/admin/transfers', { body: transferRequest({ originId: 1400 }) });
      const early = await r.request('POST', '/admin/transfers/1400/refresh');
      expect(early.status).toBe(429);
      expect(early.headers.get('retry-after')).toBe('5');
      expect(early.json).toMatchObject({ originId: 1400, retryAt: expect.any(String) });
      expect(r.bank.ledger.entry(1400)?.lookups).toHaveLength(0);

      r.clock.advance(4_000);
      const stillEarly = await r.request('POST', '/admin/transfers/1400/refresh');
      expect(stillEarly.status).toBe(429);
      expect(stillEarly.headers.get('retry-after')).toBe('1');

      r.clock.advance(1_000);
      const refreshed = await r.request('POST', '/admin/transfers/1400/refresh');
      expect(refreshed.status).toBe(200);
      expect(refreshed.json).toMatchObject({ originId: 1400, status: 'IN_PROGRESS', queries: 1 });
      expect(r.bank.ledger.entry(1400)?.lookups).toHaveLength(1);
      expect((await r.request('POST', '/admin/transfers/1400/refresh')).status).toBe(429);
      expect(r.bank.counters().pollsTooEarly).toBe(0);
    });

    it('answers 404 for an unknown originId', async () => {
      expect((await r.request('POST', '/admin/transfers/888888/refresh')).status).toBe(404);
    });
  });

  describe('POST /admin/reconcile', () => {
    it('runs one sweep and returns its counts, moving due movements to their final state', async () => {
      await r.request('POST', '/admin/transfers', { body: transferRequest({ originId: 1500 }) });
      await r.request('POST', '/admin/transfers', {
        body: transferRequest({ originId: 1501, description: 'will fail [fail]' }),
      });
      // Sandbox defaults: CREATED for 2 s, IN_PROGRESS for 6 s, then the outcome.
      r.clock.advance(10_000);
      const sweep = await r.request('POST', '/admin/reconcile');
      expect(sweep.status).toBe(200);
      expect(sweep.json).toEqual(
        expect.objectContaining({
          claimed: expect.any(Number),
          queried: expect.any(Number),
          changed: expect.any(Number),
          durationMs: expect.any(Number),
        }),
      );
      expect(sweep.json.claimed).toBeGreaterThanOrEqual(2);
      expect(sweep.json.failed).toBeGreaterThanOrEqual(1);
      expect(sweep.json.completed).toBeGreaterThanOrEqual(1);
      expect((await r.request('GET', '/admin/transfers/1500')).json.status).toBe('COMPLETED');
      const failed = (await r.request('GET', '/admin/transfers/1501')).json;
      expect(failed.status).toBe('FAILED');
      expect(failed.cancellation).toMatchObject({ originId: 1501, amount: '1234.50', acknowledgedAt: null });

      const idle = await r.request('POST', '/admin/reconcile');
      expect(idle.json).toMatchObject({ claimed: 0, queried: 0, changed: 0 });
      expect(r.bank.counters()).toMatchObject({ pollsTooEarly: 0, processedTwice: 0 });
    });
  });

  describe('cancellations', () => {
    it('lists the cancellations still to register, acknowledges one (idempotently) and lists it as acknowledged', async () => {
      const rejected = await r.request('POST', '/admin/transfers', {
        body: transferRequest({ originId: 1600, description: '[reject]', amount: '50.00' }),
      });
      expect(rejected.json).toMatchObject({ status: 'FAILED', cancellation: { originId: 1600, amount: '50.00' } });

      const pending = await r.request('GET', '/admin/cancellations?acknowledged=false');
      expect(pending.status).toBe(200);
      expect(pending.json).toEqual(
        expect.arrayContaining([expect.objectContaining({ originId: 1600, amount: '50.00', acknowledgedAt: null })]),
      );

      const ack = await r.request('POST', '/admin/cancellations/1600/ack');
      expect(ack.status).toBe(200);
      expect(ack.json).toMatchObject({ originId: 1600, acknowledgedAt: expect.any(String) });
      const again = await r.request('POST', '/admin/cancellations/1600/ack');
      expect(again.json.acknowledgedAt).toBe(ack.json.acknowledgedAt);

      const ids = async (query: string) =>
        (await r.request('GET', `/admin/cancellations${query}`)).json.map((c: { originId: number }) => c.originId);
      expect(await ids('?acknowledged=false')).not.toContain(1600);
      expect(await ids('?acknowledged=true')).toContain(1600);
      expect(await ids('')).toContain(1600);
    });

    it('answers 404 for a movement without a cancellation and 400 naming a bad filter', async () => {
      await r.request('POST', '/admin/transfers', { body: transferRequest({ originId: 1601 }) });
      expect((await r.request('POST', '/admin/cancellations/1601/ack')).status).toBe(404);
      expect((await r.request('POST', '/admin/cancellations/555555/ack')).status).toBe(404);
      const bad = await r.request('GET', '/admin/cancellations?acknowledged=maybe');
      expect(bad.status).toBe(400);
      expect(bad.json.violations).toEqual([expect.objectContaining({ field: 'acknowledged' })]);
    });
  });

  describe('operations', () => {
    it('serves Prometheus metrics: movements by status, bank latency by operation and outcome, sweeps, cancellations', async () => {
      await r.request('POST', '/admin/transfers', {
        body: transferRequest({ originId: 1700, description: '[reject]' }),
      });
      const answer = await r.request('GET', '/metrics', { token: null });
      expect(answer.headers.get('content-type')).toContain('text/plain');
      const value = (line: string) => {
        const found = answer.text.split('\n').find((l) => l.startsWith(`${line} `));
        return found === undefined ? undefined : Number(found.slice(line.length + 1));
      };
      const list = (await r.request('GET', '/admin/transfers?limit=500')).json.items as { status: string }[];
      for (const status of ['CREATED', 'IN_PROGRESS', 'COMPLETED', 'FAILED']) {
        expect(value(`giro_movements{status="${status}"}`)).toBe(list.filter((m) => m.status === status).length);
      }
      const unacknowledged = (await r.request('GET', '/admin/cancellations?acknowledged=false')).json.length;
      expect(unacknowledged).toBeGreaterThan(0);
      expect(value('giro_cancellations_unacknowledged')).toBe(unacknowledged);
      expect(
        value('giro_bank_call_duration_seconds_count{operation="create-transfer-request",outcome="200"}'),
      ).toBeGreaterThan(0);
      expect(
        value('giro_bank_call_duration_seconds_count{operation="create-transfer-request",outcome="422"}'),
      ).toBeGreaterThan(0);
      expect(value('giro_bank_call_duration_seconds_count{operation="get-movement",outcome="200"}')).toBeGreaterThan(0);
      expect(value('giro_sweep_claimed_total')).toBeGreaterThanOrEqual(2);
      expect(value('giro_sweep_failed_total')).toBeGreaterThanOrEqual(1);
      expect(value('giro_sweep_duration_seconds_count{outcome="ok"}')).toBeGreaterThanOrEqual(2);
    });

    it('reports the database and the bank as up on /health', async () => {
      const answer = await r.request('GET', '/health', { token: null });
      expect(answer.status).toBe(200);
      expect(answer.json).toMatchObject({ status: 'ok', info: { database: { status: 'up' }, bank: { status: 'up' } } });
    });

    it('publishes the OpenAPI description of every admin route at /docs', async () => {
      const docs = await r.request('GET', '/docs', { token: null });
      expect(docs.text).toContain('swagger');
      const spec = (await r.request('GET', '/docs-json', { token: null })).json;
      expect(Object.keys(spec.paths)).toEqual(
        expect.arrayContaining([
          '/admin/transfers',
          '/admin/transfers/{originId}',
          '/admin/transfers/{originId}/refresh',
          '/admin/reconcile',
          '/admin/cancellations',
          '/admin/cancellations/{originId}/ack',
          '/health',
          '/metrics',
        ]),
      );
      expect(spec.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    });

    it('writes JSON logs with the originId on lines about a movement and no secret', async () => {
      await r.request('GET', '/admin/transfers/1200');
      await r.request('POST', '/admin/transfers', { body: transferRequest({ originId: 1800 }) });
      const lines = r.logs.lines();
      const about = (originId: number) => lines.filter((line) => line.originId === originId);
      expect(about(1200).some((line) => (line.req as { url?: string })?.url === '/admin/transfers/1200')).toBe(true);
      expect(about(1800).some((line) => (line.req as { method?: string })?.method === 'POST')).toBe(true);
      expect(about(1501).some((line) => line.to === 'FAILED')).toBe(true);
      const authorized = about(1200).find((line) => (line.req as { url?: string })?.url === '/admin/transfers/1200');
      expect(authorized?.req).toMatchObject({ headers: { authorization: '[redacted]' } });
      for (const secret of [ADMIN_TOKEN, 'sandbox-token', 'sandbox-hmac-secret', 'PRIVATE KEY']) {
        expect(r.logs.text).not.toContain(secret);
      }
    });
  });
});

describe('reconciler health with the bank down', () => {
  it('answers 503 naming the bank while the database stays up', async () => {
    const r = await startTestReconciler();
    try {
      await r.stopBank();
      const answer = await r.request('GET', '/health', { token: null });
      expect(answer.status).toBe(503);
      expect(answer.json).toMatchObject({
        statusCode: 503,
        code: 'SERVICE_UNAVAILABLE',
        status: 'error',
        info: { database: { status: 'up' } },
        error: { bank: { status: 'down', message: expect.stringContaining('not reachable') } },
      });
    } finally {
      await r.close();
    }
  });
});
