import { businessDayBounds, businessDayOf } from '@giro/transfer-module';
import {
  FROM_CVU,
  startTestReconciler,
  type TestReconciler,
  TO_CBU,
  transferRequest,
} from '@test-support/reconciler-harness';

// The operators' search over HTTP (GET /admin/transfers with filters and a sort), the overview and "who am I",
// against giro itself: the reconciler in process, a sandbox bank, SQLite.

describe('admin search, overview and me', () => {
  let r: TestReconciler;
  let viewer: { key: string; keyId: string };

  beforeAll(async () => {
    r = await startTestReconciler();
    // The day's work within one Buenos Aires day: near midnight, the shared manual clock moves to the next day's
    // start (forward only, as time does), so "today" is the same day for the transfers and the overview.
    const now = r.clock.now();
    const { end } = businessDayBounds(businessDayOf(now));
    if (end.getTime() - now.getTime() < 10 * 60_000) r.clock.set(end.getTime() + 1_000);
    viewer = (await r.request('POST', '/admin/keys', { body: { name: 'back-office', role: 'viewer' } })).json;
    const transfers: [number, string, string][] = [
      [2101, '1500.00', 'Alquiler marzo'],
      [2102, '99.90', 'honorarios 10%'],
      [2103, '1500.00', 'Alquiler abril'],
      [2104, '250000.00', '[reject] devuelta por el banco'],
    ];
    for (const [originId, amount, description] of transfers) {
      const created = await r.request('POST', '/admin/transfers', {
        body: transferRequest({ originId, amount, description }),
      });
      expect(created.status).toBe(201);
    }
  });
  afterAll(() => r.close());

  const search = async (query: string) => {
    const answer = await r.request('GET', `/admin/transfers?${query}`, { token: viewer.key });
    expect(answer.status).toBe(200);
    return (answer.json.items as { originId: number }[]).map((item) => item.originId);
  };

  it('finds transfers by amount, text, account, CUIT, day and status, newest first', async () => {
    expect(await search('amountMin=1500&amountMax=1500')).toEqual([2101, 2103]);
    expect(await search('amountMin=1500&amountMax=1500&sort=-createdAt')).toEqual([2103, 2101]);
    expect(await search('text=ALQUILER&sort=createdAt')).toEqual([2101, 2103]);
    expect(await search('text=10%25')).toEqual([2102]);
    expect(await search(`from=${FROM_CVU}&to=${TO_CBU}&amountMax=100`)).toEqual([2102]);
    expect(await search(`cuit=${transferRequest().to.owner.personId}&originId=2104`)).toEqual([2104]);
    const today = businessDayOf(r.clock.now());
    expect(await search(`createdFrom=${today}&createdTo=${today}`)).toEqual([2101, 2102, 2103, 2104]);
    expect(await search('createdTo=2020-01-01')).toEqual([]);
    expect(await search('status=FAILED')).toEqual([2104]);
  });

  it('pages newest first with the cursor it gave', async () => {
    const first = await r.request('GET', '/admin/transfers?sort=-createdAt&limit=3', { token: viewer.key });
    expect(first.json.items.map((item: { originId: number }) => item.originId)).toEqual([2104, 2103, 2102]);
    const rest = await r.request('GET', `/admin/transfers?sort=-createdAt&limit=3&after=${first.json.nextCursor}`, {
      token: viewer.key,
    });
    expect(rest.json).toMatchObject({ items: [{ originId: 2101 }], nextCursor: null });
  });

  it('refuses a bad filter with 400 naming the field and its rule', async () => {
    const cases: [string, string, RegExp][] = [
      ['amountMin=1,5', 'amountMin', /plain decimal/],
      ['from=123', 'from', /22 digits/],
      ['cuit=20123456780', 'cuit', /check digit/],
      ['createdFrom=yesterday', 'createdFrom', /YYYY-MM-DD/],
      ['createdTo=2026-02-30', 'createdTo', /YYYY-MM-DD/],
      ['sort=amount', 'sort', /originId, createdAt, -createdAt/],
      [`text=${'x'.repeat(101)}`, 'text', /1 to 100/],
      ['sort=-createdAt&after=2101', 'after', /nextCursor/],
    ];
    for (const [query, field, message] of cases) {
      const answer = await r.request('GET', `/admin/transfers?${query}`, { token: viewer.key });
      expect({ query, status: answer.status }).toEqual({ query, status: 400 });
      expect(answer.json.violations).toEqual([
        expect.objectContaining({ field, message: expect.stringMatching(message) }),
      ]);
    }
  });

  it("tells a key who it is, and an overview of today's work", async () => {
    const me = await r.request('GET', '/admin/me', { token: viewer.key });
    expect(me.json).toEqual({ keyId: viewer.keyId, name: 'back-office', role: 'viewer', bootstrap: false });
    // The bootstrap admin token says so: an admin the console does not offer approvals to (it may not approve).
    const bootstrap = await r.request('GET', '/admin/me');
    expect(bootstrap.json).toEqual({ keyId: 'admin-token', name: 'admin-token', role: 'admin', bootstrap: true });
    const waiting = (await r.request('GET', '/admin/overview', { token: viewer.key })).json;
    expect(waiting).toMatchObject({ sentToday: [], oldestNonFinal: { originId: 2101, status: 'CREATED' } });
    // The bank has settled them by now: one sweep reads their final status.
    r.clock.advance(60_000);
    expect((await r.request('POST', '/admin/reconcile')).status).toBe(200);
    const overview = (await r.request('GET', '/admin/overview', { token: viewer.key })).json;
    expect(overview).toEqual({
      countsByStatus: expect.objectContaining({ COMPLETED: 3, FAILED: 1, PENDING: 0 }),
      sentToday: [{ currencyId: '032', amount: '3099.90', count: 3 }],
      oldestNonFinal: null,
      anomaliesOpen: 0,
      cancellationsToRegister: 1,
      awaitingApproval: 0,
      scheduled: {
        today: { day: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/), totals: [] },
        tomorrow: { day: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/), totals: [] },
      },
    });
  });
});
