import { startTestReconciler, type TestReconciler, transferRequest } from './support/reconciler-harness';

// Scheduled transfers end to end: the reconciler and the sandbox bank on one manual clock. A transfer created with
// `executeAt` or `executeOn` is SCHEDULED, unknown to the bank until its moment, and sent by the sweep at it; one
// canceled before never reaches the bank.

describe('scheduled transfers over the admin API', () => {
  let r: TestReconciler;
  beforeAll(async () => {
    r = await startTestReconciler();
  });
  afterAll(() => r.close());

  const create = (body: Record<string, unknown>) => r.request('POST', '/admin/transfers', { body });
  const reconcile = async () => expect((await r.request('POST', '/admin/reconcile')).status).toBe(200);

  it('keeps a transfer 20 seconds ahead from the bank until its moment, then completes it', async () => {
    const executeAt = new Date(r.clock.now().getTime() + 20_000).toISOString();
    const created = await create({ ...transferRequest({ originId: 7001 }), executeAt });
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({ status: 'SCHEDULED', schedule: { executeAt, requested: { executeAt } } });
    const listed = await r.request('GET', '/admin/transfers?status=SCHEDULED');
    expect(listed.json.items.map((item: { originId: number }) => item.originId)).toEqual([7001]);

    r.clock.advance(19_999);
    await reconcile();
    expect(r.bank.ledger.entry(7001)).toBeUndefined();

    r.clock.advance(1);
    await reconcile();
    expect(r.bank.ledger.entry(7001)).toBeDefined();
    for (let i = 0; i < 20 && (await r.request('GET', '/admin/transfers/7001')).json.status !== 'COMPLETED'; i++) {
      r.clock.advance(10_000);
      await reconcile();
    }
    expect((await r.request('GET', '/admin/transfers/7001')).json.status).toBe('COMPLETED');
  });

  it('says a Christmas day is sent on Monday 2026-12-28 at 09:00 in Buenos Aires', async () => {
    const created = await create({ ...transferRequest({ originId: 7002 }), executeOn: '2026-12-25' });
    expect(created.status).toBe(201);
    expect(created.json.schedule).toEqual({
      executeAt: '2026-12-28T12:00:00.000Z',
      requested: { executeOn: '2026-12-25' },
    });
  });

  it('cancels before the moment, one or several, and refuses a cancel of what was sent with its code', async () => {
    const ahead = { executeOn: '2026-12-28' };
    for (const originId of [7003, 7004, 7005]) {
      expect((await create({ ...transferRequest({ originId }), ...ahead })).status).toBe(201);
    }
    const one = await r.request('POST', '/admin/transfers/7003/cancel');
    expect(one.status).toBe(200);
    expect(one.json).toMatchObject({ status: 'CANCELED', history: [{ to: 'SCHEDULED' }, { to: 'CANCELED' }] });
    const again = await r.request('POST', '/admin/transfers/7003/cancel');
    expect(again.status).toBe(409);
    expect(again.json).toMatchObject({ code: 'TRANSFER_NOT_SCHEDULED', originId: 7003, status: 'CANCELED' });
    const sent = await r.request('POST', '/admin/transfers/7001/cancel');
    expect(sent.json).toMatchObject({ statusCode: 409, code: 'TRANSFER_NOT_SCHEDULED' });

    const many = await r.request('POST', '/admin/transfers/cancel', { body: { originIds: [7004, 7005, 7001] } });
    expect(many.status).toBe(200);
    expect(many.json.items.map((item: { outcome: string }) => item.outcome)).toEqual([
      'canceled',
      'canceled',
      'refused',
    ]);

    r.clock.set(Date.parse('2026-12-28T12:00:00Z'));
    await reconcile();
    for (const originId of [7003, 7004, 7005]) expect(r.bank.ledger.entry(originId)).toBeUndefined();
    expect(r.bank.ledger.entry(7002)).toBeDefined();
  });

  it('refuses a bad schedule, naming the field and the rule, with nothing stored', async () => {
    const both = await create({
      ...transferRequest({ originId: 7010 }),
      executeOn: '2026-12-28',
      executeAt: '2026-12-28T09:00:00Z',
    });
    expect(both.status).toBe(400);
    expect(both.json.violations).toMatchObject([
      { field: '', rule: 'exclusive', params: { fields: ['executeOn', 'executeAt'] } },
    ]);
    const noOffset = await create({ ...transferRequest({ originId: 7011 }), executeAt: '2026-12-28T09:00:00' });
    expect(noOffset.json.violations).toMatchObject([{ field: 'executeAt', rule: 'execute_at' }]);
    const past = await create({ ...transferRequest({ originId: 7012 }), executeOn: '2020-01-02' });
    expect(past.status).toBe(422);
    expect(past.json).toMatchObject({ code: 'SCHEDULE_REFUSED', violations: [{ field: 'executeOn', rule: 'past' }] });
    for (const originId of [7010, 7011, 7012]) {
      expect((await r.request('GET', `/admin/transfers/${originId}`)).status).toBe(404);
    }
  });
});
