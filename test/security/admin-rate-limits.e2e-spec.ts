import { LoopbackHosts } from '@test-support/loopback-hosts';
import { ADMIN_TOKEN, startTestReconciler, type TestReconciler } from '@test-support/reconciler-harness';

// Rate limits are chosen after the token is checked: the admin token has its own budget, wherever it comes from
// (ADMIN_RATE_LIMIT_PER_MINUTE), and requests without a valid token a stricter one per client address
// (ADMIN_UNAUTHENTICATED_RATE_LIMIT_PER_MINUTE). Token-less requests, however many, never lock the token out.
// Behind trusted proxies (TRUST_PROXY) the address is the one they forward; nobody else can choose theirs.

describe('admin rate limits', () => {
  const hosts = new LoopbackHosts(3);
  afterAll(() => hosts.close());

  describe('with the default budgets (600 a minute for the token, 60 for requests without one)', () => {
    let r: TestReconciler;
    beforeAll(async () => {
      r = await startTestReconciler();
    });
    afterAll(() => r?.close());

    it('600 token-less requests do not lock the real token out, and get 429 past their own budget of 60', async () => {
      const statuses = new Map<number, number>();
      for (let i = 0; i < 600; i++) {
        const answer = await r.request('GET', '/admin/transfers?limit=1', {
          token: i % 2 === 0 ? null : 'wrong-token-0123456789',
        });
        statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
      }
      expect(Object.fromEntries(statuses)).toEqual({ 401: 60, 429: 540 });
      const refused = await r.request('GET', '/admin/transfers', { token: null });
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(refused.json).toEqual({
        statusCode: 429,
        code: 'RATE_LIMITED',
        error: 'Too Many Requests',
        message: expect.stringMatching(/^too many requests: 60 a minute from one address without a valid token/),
      });
      // From the same address, at once: the token's budget is its own.
      const admitted = await r.request('GET', '/admin/transfers?limit=1');
      expect(admitted.status).toBe(200);
    });
  });

  describe('the token’s budget', () => {
    let r: TestReconciler;
    beforeAll(async () => {
      r = await startTestReconciler({ adminRateLimitPerMinute: 6 });
    });
    afterAll(() => r?.close());

    it('is one budget across addresses and routes: the 7th request a minute is refused wherever it comes from', async () => {
      const authorization = { authorization: `Bearer ${ADMIN_TOKEN}` };
      const paths = ['/admin/transfers', '/admin/cancellations', '/admin/transfers/1'];
      const statuses: number[] = [];
      for (let i = 0; i < 7; i++) {
        const answer = await hosts.request(`${r.url}${paths[i % 3]}`, { method: 'GET', headers: authorization });
        statuses.push(answer.status);
      }
      expect(statuses).toEqual([200, 200, 404, 200, 200, 404, 429]);
      // Requests without the token still get their own answer: 401, not the token's 429.
      expect((await r.request('GET', '/admin/transfers', { token: null })).status).toBe(401);
    });
  });

  describe('behind a reverse proxy', () => {
    const proxied = (r: TestReconciler, client: string) =>
      hosts.request(`${r.url}/admin/transfers`, { method: 'GET', headers: { 'x-forwarded-for': client } });

    it('TRUST_PROXY=loopback: each forwarded client address has its own unauthenticated budget', async () => {
      const r = await startTestReconciler({
        server: { trustProxy: ['loopback'], unauthenticatedRateLimitPerMinute: 3 },
      });
      try {
        const first = [];
        for (let i = 0; i < 4; i++) first.push((await proxied(r, '203.0.113.7')).status);
        expect(first).toEqual([401, 401, 401, 429]);
        expect((await proxied(r, '198.51.100.9')).status).toBe(401);
      } finally {
        await r.close();
      }
    });

    it('without TRUST_PROXY, X-Forwarded-For is ignored: a client cannot pick a fresh address per request', async () => {
      const r = await startTestReconciler({ server: { unauthenticatedRateLimitPerMinute: 3 } });
      try {
        const statuses = [];
        for (let i = 0; i < 4; i++) {
          const answer = await r.request('GET', '/admin/transfers', {
            token: null,
            headers: { 'x-forwarded-for': `203.0.113.${i}` },
          });
          statuses.push(answer.status);
        }
        expect(statuses).toEqual([401, 401, 401, 429]);
      } finally {
        await r.close();
      }
    });
  });
});
