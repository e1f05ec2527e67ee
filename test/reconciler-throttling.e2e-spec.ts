import { startTestReconciler, type TestReconciler } from './support/reconciler-harness';

// The admin API throttles the admin token (ADMIN_RATE_LIMIT_PER_MINUTE); probes and scrapes are never throttled.
// Requests without a valid token have a budget of their own (test/security/admin-rate-limits).

describe('reconciler admin API throttling', () => {
  const LIMIT = 5;
  let r: TestReconciler;
  beforeAll(async () => {
    r = await startTestReconciler({ adminRateLimitPerMinute: LIMIT });
  });
  afterAll(() => r.close());

  it('answers 429 with Retry-After past the limit, and keeps /health and /metrics open', async () => {
    for (let i = 0; i < LIMIT; i++) {
      expect((await r.request('GET', '/admin/transfers?limit=1')).status).toBe(200);
    }
    const refused = await r.request('GET', '/admin/transfers?limit=1');
    expect(refused.status).toBe(429);
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    // A wrong token is not the token: it is answered 401 from its own budget, not the token's.
    expect((await r.request('GET', '/admin/transfers', { token: 'wrong-token-of-the-same-kind' })).status).toBe(401);

    expect((await r.request('GET', '/health', { token: null })).status).toBe(200);
    expect((await r.request('GET', '/metrics', { token: null })).status).toBe(200);
  });
});
