import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { completeCbuCvu, PayeeBlockedError, TransferService, WebhookDispatcher } from '@giro/transfer-module';
import { startTestReconciler, type TestReconciler, TO_CBU, transferRequest } from './support/reconciler-harness';

// The payee book end to end: the reconciler in process (SQLite) with NEW_PAYEE_REQUIRES_APPROVAL=true, the sandbox
// bank answering at once (zero timings: the creation's answer is COMPLETED), an operator's key and two approvers'.
// A first payment waits for an approval whatever its amount, and is sent only when another key approves it (which
// approves the payee); the bank's answer teaches the book the holder's name; an answer naming another counterparty
// is an anomaly and a webhook; a blocked account is refused through the API, a batch and the service.

const NEVER_PAID = completeCbuCvu('0170001', '0000000000555');
const BLOCKED = completeCbuCvu('0170001', '0000000000666');

/** A webhook receiver on loopback that records every body. */
async function startReceiver() {
  const bodies: string[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      bodies.push(Buffer.concat(chunks).toString('utf8'));
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    bodies,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('the payee book over the admin API', () => {
  let r: TestReconciler;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  const keys: Record<string, string> = {};

  beforeAll(async () => {
    receiver = await startReceiver();
    r = await startTestReconciler({
      newPayeeRequiresApproval: true,
      sandboxConfig: { timings: { createdMs: 0, inProgressMs: 0, delayedMs: 0 } },
      webhooks: { options: { allowLoopback: true } },
    });
    // Two people: each mints their working keys with an admin key of their own (four eyes).
    const mint = async (name: string, role: string, token?: string) => {
      const made = await r.request('POST', '/admin/keys', { body: { name, role }, ...(token && { token }) });
      expect(made.status).toBe(201);
      keys[name] = made.json.key;
    };
    await mint('ana', 'admin');
    await mint('beto', 'admin');
    await mint('ops', 'operator', keys.ana);
    await mint('checker', 'approver', keys.beto);
    await mint('viewer', 'viewer', keys.ana);
    expect((await r.request('POST', '/admin/webhooks', { body: { url: receiver.url } })).status).toBe(201);
  });
  afterAll(async () => {
    await r?.close();
    await receiver?.close();
  });

  const create = (originId: number, options: { to?: string; description?: string; token?: string } = {}) =>
    r.request('POST', '/admin/transfers', {
      body: transferRequest({ originId, amount: '10.00', ...options }),
      token: options.token ?? keys.ops,
    });
  const approve = (originId: number, token: string) =>
    r.request('POST', `/admin/transfers/${originId}/approve`, { token });

  it('holds a 10-peso first payment to an account never paid, refuses its creator, and sends it on approval', async () => {
    const held = await create(7001);
    expect(held.status).toBe(201);
    expect(held.json).toMatchObject({ status: 'AWAITING_APPROVAL', approval: { holds: [{ reason: 'new_payee' }] } });
    expect(r.bank.ledger.entry(7001)).toBeUndefined();
    // The admin token creates, and never approves (its own transfer or any other).
    const byAdmin = await r.request('POST', '/admin/transfers', {
      body: transferRequest({ originId: 7002, amount: '10.00' }),
    });
    expect(byAdmin.json.status).toBe('AWAITING_APPROVAL');
    const self = await approve(7001, keys.ops);
    expect(self.status).toBe(403);
    const ownKey = await r.request('POST', '/admin/transfers/7002/approve');
    expect(ownKey.status).toBe(403);
    expect(ownKey.json.code).toBe('BOOTSTRAP_CANNOT_APPROVE');
    expect(r.bank.ledger.entry(7002)).toBeUndefined();

    const approved = await approve(7001, keys.checker);
    expect(approved.status).toBe(200);
    expect(approved.json.status).toBe('COMPLETED');
    expect(r.bank.ledger.entry(7001)).toBeDefined();
    const payee = await r.request('GET', `/admin/payees/${TO_CBU}`, { token: keys.viewer });
    expect(payee.status).toBe(200);
    expect(payee.json).toMatchObject({
      address: TO_CBU,
      holder: { personId: transferRequest().to.owner.personId, name: expect.any(String) },
      holderDiffers: false,
      completed: { count: 1, amount: '10.00' },
      approved: { by: { name: 'checker' } },
      blocked: null,
    });
    expect(payee.json.holder.name).toBe(approved.json.bank.counterparty.personName);

    // Paid and approved: the next one to the same account goes at once.
    const next = await create(7003);
    expect(next.json.status).toBe('COMPLETED');
    expect(next.json.approval).toBeUndefined();
  });

  it('finds the payee by the start of its holder name, its CUIT and its account', async () => {
    const { json: payee } = await r.request('GET', `/admin/payees/${TO_CBU}`, { token: keys.viewer });
    for (const q of [payee.holder.name.slice(0, 4), payee.holder.personId, TO_CBU.slice(0, 8)]) {
      const found = await r.request('GET', `/admin/payees?q=${encodeURIComponent(q)}`, { token: keys.viewer });
      expect(found.status).toBe(200);
      expect(found.json.items.map((item: { address: string }) => item.address)).toContain(TO_CBU);
    }
    const labelled = await r.request('POST', '/admin/payees', {
      body: { address: NEVER_PAID, personId: transferRequest().to.owner.personId, label: 'Proveedor nuevo' },
      token: keys.ops,
    });
    expect(labelled.status).toBe(200);
    expect(labelled.json).toMatchObject({ label: 'Proveedor nuevo', completed: { count: 0 }, approved: null });
    const byLabel = await r.request('GET', '/admin/payees?q=proveedor', { token: keys.viewer });
    expect(byLabel.json.items.map((item: { address: string }) => item.address)).toEqual([NEVER_PAID]);
    const missing = await r.request('GET', `/admin/payees/${BLOCKED}`, { token: keys.viewer });
    expect(missing.status).toBe(404);
    expect(missing.json.code).toBe('PAYEE_NOT_FOUND');
    // Labelled by hand, not approved: its first payment is still held.
    expect((await create(7004, { to: NEVER_PAID })).json.status).toBe('AWAITING_APPROVAL');
  });

  it('raises a counterparty_mismatch anomaly and its webhook when the bank names another CUIT', async () => {
    // A known payee: sent at once, and the bank's answer names someone else.
    const answered = await create(7010, { description: 'pago [other-payee]' });
    expect(answered.json.status).toBe('COMPLETED');
    const anomalies = await r.request('GET', '/admin/anomalies?originId=7010', { token: keys.viewer });
    expect(anomalies.json.items).toEqual([
      expect.objectContaining({
        originId: 7010,
        kind: 'counterparty_mismatch',
        claimed: 'COMPLETED',
        reason: expect.stringContaining(answered.json.to.owner.personId),
      }),
    ]);
    const movement = (await r.request('GET', '/admin/transfers/7010', { token: keys.viewer })).json;
    expect(movement.status).toBe('COMPLETED');
    expect(anomalies.json.items[0].reason).toContain(movement.bank.counterparty.personId);
    await r.app.get(WebhookDispatcher).deliverDue();
    const events = receiver.bodies.map((body) => JSON.parse(body));
    expect(events).toContainEqual(
      expect.objectContaining({
        type: 'transfer.anomaly',
        data: expect.objectContaining({ originId: 7010, kind: 'counterparty_mismatch' }),
      }),
    );
    const payee = (await r.request('GET', `/admin/payees/${TO_CBU}`, { token: keys.viewer })).json;
    expect(payee).toMatchObject({ holderDiffers: true, holder: { personId: movement.bank.counterparty.personId } });
    expect(payee.previousNames).toHaveLength(1);
    expect(payee.nameChangedAt).not.toBeNull();
  });

  it('refuses a blocked account through the API, a batch and the service, with nothing stored or sent', async () => {
    expect((await r.request('POST', `/admin/payees/${BLOCKED}/block`, { token: keys.ops })).status).toBe(403);
    const blocked = await r.request('POST', `/admin/payees/${BLOCKED}/block`, { token: keys.checker });
    expect(blocked.status).toBe(200);
    expect(blocked.json.blocked).toMatchObject({ by: { name: 'checker' } });

    const refused = await create(7020, { to: BLOCKED });
    expect(refused.status).toBe(422);
    expect(refused.json).toMatchObject({
      code: 'PAYEE_BLOCKED',
      address: BLOCKED,
      violations: [{ field: 'to.address', rule: 'payee_blocked', params: { address: BLOCKED } }],
    });
    const batch = await r.request('POST', '/admin/transfers/batch', {
      body: [transferRequest({ originId: 7021, to: BLOCKED }), transferRequest({ originId: 7022 })],
      token: keys.ops,
    });
    expect(batch.status).toBe(200);
    expect(batch.json.rows).toEqual([
      expect.objectContaining({ originId: 7021, outcome: 'refused' }),
      expect.objectContaining({ originId: 7022, outcome: 'created' }),
    ]);
    const neverPaid = completeCbuCvu('0170001', '0000000000777');
    const dry = await r.request('POST', '/admin/transfers/batch?dryRun=true', {
      body: [
        transferRequest({ originId: 7023, to: BLOCKED }),
        transferRequest({ originId: 7026, to: neverPaid }),
        transferRequest({ originId: 7027 }),
      ],
      token: keys.ops,
    });
    expect(dry.json.rows).toEqual([
      expect.objectContaining({ originId: 7023, outcome: 'refused' }),
      expect.objectContaining({ row: 2, originId: 7026, outcome: 'valid', newPayee: true }),
      expect.objectContaining({ row: 3, originId: 7027, outcome: 'valid' }),
    ]);
    // Its account was paid before: not a first payment.
    expect(dry.json.rows[2]).not.toHaveProperty('newPayee');
    await expect(
      r.app.get(TransferService).requestTransfer(transferRequest({ originId: 7024, to: BLOCKED })),
    ).rejects.toBeInstanceOf(PayeeBlockedError);
    for (const originId of [7020, 7021, 7023, 7024]) {
      expect((await r.request('GET', `/admin/transfers/${originId}`, { token: keys.viewer })).status).toBe(404);
      expect(r.bank.ledger.entry(originId)).toBeUndefined();
    }
    const audit = await r.request('GET', '/admin/audit?limit=50');
    expect(audit.json.items.map((item: { action: string }) => item.action)).toEqual(
      expect.arrayContaining(['payee.block', 'payee.add']),
    );

    expect((await r.request('POST', `/admin/payees/${BLOCKED}/unblock`, { token: keys.checker })).status).toBe(200);
    expect((await create(7025, { to: BLOCKED })).json.status).toBe('AWAITING_APPROVAL');
  });
});
