import { MovementStore } from '@giro/transfer-module/persistence';
import { startTestReconciler, type TestReconciler, transferRequest } from '@test-support/reconciler-harness';

// Anomalies an operator closes, and cancellations paged and acknowledged with a reference, against giro itself (the
// reconciler in process, a sandbox bank, SQLite), with real API keys. The sandbox never contradicts a final status
// on its own, so each anomaly is written as the sender writes one — through the movement store, under a lease: an
// answer claiming COMPLETED for a movement that FAILED, recorded and never applied.

describe('admin anomalies and cancellations', () => {
  let r: TestReconciler;
  let viewer: string;
  let operator: string;
  let operatorKeyId: string;
  let startedBefore: number;

  beforeAll(async () => {
    startedBefore = Date.now();
    r = await startTestReconciler();
    viewer = (await r.request('POST', '/admin/keys', { body: { name: 'auditor', role: 'viewer' } })).json.key;
    const made = (await r.request('POST', '/admin/keys', { body: { name: 'payments-bot', role: 'operator' } })).json;
    operator = made.key;
    operatorKeyId = made.keyId;
  });
  afterAll(() => r.close());

  /** A transfer the bank refuses at creation: FAILED at once, with its cancellation. */
  async function failedTransfer(originId: number) {
    const answer = await r.request('POST', '/admin/transfers', {
      body: transferRequest({ originId, description: '[reject]' }),
      token: operator,
    });
    expect(answer.json).toMatchObject({ originId, status: 'FAILED' });
  }

  /** The bank's answer claiming COMPLETED after FAILED, as the sender records it. */
  async function contradict(originId: number): Promise<number> {
    const store = r.app.get(MovementStore);
    expect(await store.claim(originId, 'e2e-anomaly-writer', 30_000)).not.toBeNull();
    const written = await store.applyUpdate(originId, 'e2e-anomaly-writer', {
      patch: {},
      history: [{ to: 'COMPLETED', source: 'anomaly', detail: { reason: 'the bank says COMPLETED after FAILED' } }],
      releaseLease: true,
    });
    if (!written.applied) throw new Error('the anomaly was not written');
    return written.history[0].id;
  }

  it('lists anomalies, lets an operator resolve one with a note, and leaves the movement as it was', async () => {
    await failedTransfer(1700);
    await failedTransfer(1701);
    const first = await contradict(1700);
    const second = await contradict(1701);
    const movementBefore = (await r.request('GET', '/admin/transfers/1700')).json;
    expect(movementBefore.anomalies).toEqual([
      expect.objectContaining({ id: first, status: 'FAILED', claimed: 'COMPLETED', resolution: null }),
    ]);

    const listed = await r.request('GET', '/admin/anomalies', { token: viewer });
    expect(listed.status).toBe(200);
    expect(listed.json).toEqual({
      items: [
        expect.objectContaining({ id: second, originId: 1701, resolution: null }),
        expect.objectContaining({ id: first, originId: 1700, reason: 'the bank says COMPLETED after FAILED' }),
      ],
      nextCursor: null,
    });

    // A viewer may read, not resolve.
    const refused = await r.request('POST', `/admin/anomalies/${first}/resolve`, {
      token: viewer,
      body: { note: 'looks fine' },
    });
    expect(refused.status).toBe(403);
    expect(refused.json).toMatchObject({ code: 'FORBIDDEN', requiredRole: 'operator', role: 'viewer' });

    // A bad note is refused naming `note`; nothing is resolved.
    for (const body of [{}, { note: '' }, { note: '   ' }, { note: 'x'.repeat(501) }, { note: 5 }]) {
      const bad = await r.request('POST', `/admin/anomalies/${first}/resolve`, { token: operator, body });
      expect(bad.status).toBe(400);
      expect(bad.json.violations).toEqual([expect.objectContaining({ field: 'note' })]);
    }
    const extra = await r.request('POST', `/admin/anomalies/${first}/resolve`, {
      token: operator,
      body: { note: 'ok', resolvedBy: 'someone else' },
    });
    expect(extra.status).toBe(400);
    expect(extra.json.violations).toEqual([expect.objectContaining({ field: 'resolvedBy', rule: 'unknown_field' })]);
    expect((await r.request('GET', '/admin/anomalies?resolved=true')).json.items).toEqual([]);

    const resolved = await r.request('POST', `/admin/anomalies/${first}/resolve`, {
      token: operator,
      body: { note: 'the bank confirmed the transfer failed; its answer was a replay' },
    });
    expect(resolved.status).toBe(200);
    expect(resolved.json).toMatchObject({
      id: first,
      originId: 1700,
      resolution: {
        at: expect.any(String),
        by: { keyId: operatorKeyId, name: 'payments-bot' },
        note: 'the bank confirmed the transfer failed; its answer was a replay',
      },
    });

    const again = await r.request('POST', `/admin/anomalies/${first}/resolve`, { body: { note: 'me too' } });
    expect(again.status).toBe(409);
    expect(again.json).toMatchObject({
      code: 'ANOMALY_ALREADY_RESOLVED',
      anomalyId: first,
      resolution: { by: { name: 'payments-bot' } },
    });
    const unknown = await r.request('POST', '/admin/anomalies/999999/resolve', { body: { note: 'x' } });
    expect(unknown.status).toBe(404);
    expect(unknown.json).toMatchObject({ code: 'ANOMALY_NOT_FOUND', anomalyId: 999999 });
    expect((await r.request('POST', '/admin/anomalies/abc/resolve', { body: { note: 'x' } })).json.violations).toEqual([
      expect.objectContaining({ field: 'id' }),
    ]);

    // The movement is the same, its anomaly now with its resolution.
    const movementAfter = (await r.request('GET', '/admin/transfers/1700')).json;
    expect(movementAfter).toEqual({
      ...movementBefore,
      anomalies: [{ ...movementBefore.anomalies[0], resolution: resolved.json.resolution }],
    });

    // Unresolved first; filters; pages.
    const ids = async (query: string) =>
      (await r.request('GET', `/admin/anomalies${query}`, { token: viewer })).json.items.map(
        (a: { id: number }) => a.id,
      );
    expect(await ids('')).toEqual([second, first]);
    expect(await ids('?resolved=false')).toEqual([second]);
    expect(await ids('?resolved=true')).toEqual([first]);
    expect(await ids('?originId=1700')).toEqual([first]);
    const page = (await r.request('GET', '/admin/anomalies?limit=1')).json;
    expect(page.items.map((a: { id: number }) => a.id)).toEqual([second]);
    expect(await ids(`?limit=1&after=${encodeURIComponent(page.nextCursor)}`)).toEqual([first]);
    const badFilter = await r.request('GET', '/admin/anomalies?resolved=maybe&after=zzz');
    expect(badFilter.status).toBe(400);
    expect(badFilter.json.violations).toEqual([expect.objectContaining({ field: 'resolved' })]);
    expect((await r.request('GET', '/admin/anomalies?after=zzz')).json.violations).toEqual([
      expect.objectContaining({ field: 'after', rule: 'cursor' }),
    ]);

    const metrics = await r.request('GET', '/metrics', { token: null });
    expect(metrics.text).toMatch(/^giro_anomalies_unresolved 1$/m);
  });

  it('pages cancellations like the transfers list, keeps the bare list, and acknowledges with a reference', async () => {
    for (const originId of [1800, 1801, 1802]) await failedTransfer(originId);
    const bare = await r.request('GET', '/admin/cancellations?acknowledged=false', { token: viewer });
    expect(Array.isArray(bare.json)).toBe(true);
    const all = bare.json.map((c: { originId: number }) => c.originId);
    expect(all).toEqual(expect.arrayContaining([1800, 1801, 1802]));

    const seen: number[] = [];
    let after: string | null = null;
    do {
      const query: string = `?acknowledged=false&limit=2${after === null ? '' : `&after=${encodeURIComponent(after)}`}`;
      const page = await r.request('GET', `/admin/cancellations${query}`, { token: viewer });
      expect(page.status).toBe(200);
      expect(page.json.items.length).toBeLessThanOrEqual(2);
      seen.push(...page.json.items.map((c: { originId: number }) => c.originId));
      after = page.json.nextCursor;
    } while (after !== null);
    expect(seen).toEqual(all);

    const tooLong = await r.request('POST', '/admin/cancellations/1801/ack', {
      token: operator,
      body: { reference: 'R'.repeat(101) },
    });
    expect(tooLong.status).toBe(400);
    expect(tooLong.json.violations).toEqual([expect.objectContaining({ field: 'reference' })]);
    const unknownField = await r.request('POST', '/admin/cancellations/1801/ack', {
      token: operator,
      body: { reference: 'REG-1', by: 'x' },
    });
    expect(unknownField.json.violations).toEqual([expect.objectContaining({ field: 'by', rule: 'unknown_field' })]);
    expect((await r.request('GET', '/admin/transfers/1801')).json.cancellation.acknowledgedAt).toBeNull();

    const ack = await r.request('POST', '/admin/cancellations/1801/ack', {
      token: operator,
      body: { reference: 'HOST-REG-2026-0042' },
    });
    expect(ack.status).toBe(200);
    expect(ack.json).toMatchObject({
      originId: 1801,
      acknowledgedAt: expect.any(String),
      reference: 'HOST-REG-2026-0042',
      acknowledgedBy: { keyId: operatorKeyId, name: 'payments-bot' },
    });
    expect((await r.request('GET', '/admin/transfers/1801')).json.cancellation).toEqual(ack.json);
    // Without a body, as before: acknowledged by the bootstrap admin, no reference.
    const plain = await r.request('POST', '/admin/cancellations/1802/ack');
    expect(plain.json).toMatchObject({
      reference: null,
      acknowledgedBy: { keyId: 'admin-token', name: 'admin-token' },
    });
  });

  it('shows the age of the oldest movement that is not final in /metrics', async () => {
    const open = await r.request('POST', '/admin/transfers', { body: transferRequest({ originId: 1900 }) });
    expect(open.json.status).not.toMatch(/COMPLETED|FAILED/);
    const text = (await r.request('GET', '/metrics', { token: null })).text;
    const age = Number(/^giro_oldest_non_final_movement_age_seconds (\S+)$/m.exec(text)?.[1]);
    // Created on the test's clock, which stands still at the reconciler's start: as old as the test run, no older.
    expect(age).toBeGreaterThan(0);
    expect(age).toBeLessThanOrEqual((Date.now() - startedBefore) / 1000);
    expect(text).toContain('# TYPE giro_oldest_non_final_movement_age_seconds gauge');
  });
});
