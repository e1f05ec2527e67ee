import { ApiKeyService } from '@giro/transfer-module';
import { MovementStore } from '@giro/transfer-module/persistence';
import { LoopbackHosts } from '@test-support/loopback-hosts';
import {
  ADMIN_TOKEN,
  startTestReconciler,
  type TestReconciler,
  transferRequest,
} from '@test-support/reconciler-harness';
import fc from 'fast-check';

// The admin API answers 401 to every request without the right bearer token — none, another token, a near
// miss, another scheme — on every route, and changes nothing: no movement stored, nothing sent to the bank, no
// API key made, the token never echoed.

const ADMIN_ROUTES: [method: string, path: string][] = [
  ['POST', '/admin/transfers'],
  ['GET', '/admin/transfers'],
  ['GET', '/admin/transfers/1'],
  ['POST', '/admin/transfers/1/refresh'],
  ['POST', '/admin/reconcile'],
  ['GET', '/admin/cancellations'],
  ['POST', '/admin/cancellations/1/ack'],
  ['POST', '/admin/keys'],
  ['GET', '/admin/keys'],
  ['POST', '/admin/keys/ops/revoke'],
];

describe('the admin API without the right token', () => {
  let r: TestReconciler;
  let hosts: LoopbackHosts;
  let refused = 0;
  let held = false;

  beforeAll(async () => {
    r = await startTestReconciler();
    hosts = new LoopbackHosts(4);
  });
  afterAll(async () => {
    await hosts?.close();
    await r?.close();
    console.log(
      `admin authentication: ${refused} requests without the right bearer token over ${ADMIN_ROUTES.length} routes: ` +
        (held ? 'all 401, stored 0, sent 0, token echoed 0' : 'BROKEN (counterexample above)'),
    );
  });

  const authorization = fc.oneof(
    fc.constant(undefined),
    fc.string({ minLength: 1, maxLength: 80 }).map((token) => `Bearer ${token}`),
    fc.constantFrom(
      `Bearer ${ADMIN_TOKEN.slice(0, -1)}`,
      `Bearer ${ADMIN_TOKEN}x`,
      `Bearer ${ADMIN_TOKEN.toUpperCase()}`,
      `Bearer ${ADMIN_TOKEN} ${ADMIN_TOKEN}`,
      `Basic ${ADMIN_TOKEN}`,
      `Basic ${Buffer.from(`admin:${ADMIN_TOKEN}`).toString('base64')}`,
      `Token ${ADMIN_TOKEN}`,
      ADMIN_TOKEN,
      'Bearer ',
      `Bearer ${'a'.repeat(8_000)}`,
    ),
  );

  it('answers 401 to every admin route, whatever else the request carries, and changes nothing', async () => {
    const store = r.app.get(MovementStore);
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...ADMIN_ROUTES), authorization, async ([method, path], header) => {
        fc.pre(header !== `Bearer ${ADMIN_TOKEN}`);
        refused += 1;
        const answer = await hosts.request(`${r.url}${path}`, {
          method,
          headers: { 'content-type': 'application/json', ...(header !== undefined && { authorization: header }) },
          ...(method === 'POST' && { body: JSON.stringify(transferRequest({ originId: 4242 })) }),
        });
        expect({ method, path, header, status: answer.status }).toEqual({ method, path, header, status: 401 });
        expect(String(answer.headers['www-authenticate'])).toMatch(/^Bearer/);
        expect(answer.text).not.toContain(ADMIN_TOKEN);
      }),
      { numRuns: 150 },
    );
    expect(Object.values(await store.countByStatus()).every((count) => count === 0)).toBe(true);
    expect(r.bank.counters().requests).toEqual({});
    expect(await r.app.get(ApiKeyService).listKeys()).toEqual([]);
    held = true;
  });
});
