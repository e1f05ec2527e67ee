import type { SandboxBank } from '@giro/sandbox-bank';
import { ApprovalService, SelfApprovalError } from '@giro/transfer-module';
import { type ManualClock, sampleTransferRequest } from '@giro/transfer-module/testing';
import { describeOnEachEngine } from './support/engines';
import { type Giro, giroOptions, manualClock, startGiro, startTestSandbox } from './support/giro-harness';
import { ADMIN_TOKEN, startTestReconciler, type TestReconciler, transferRequest } from './support/reconciler-harness';

// Maker–checker end to end: the reconciler with APPROVAL_REQUIRED_ABOVE=1000, an operator key and two approver keys,
// against the sandbox bank. A transfer above the threshold waits AWAITING_APPROVAL and never reaches the bank (its
// ledger) until another key with the approver role approves it; rejected or expired, it ends REJECTED, never sent.

const DAY = 24 * 60 * 60 * 1000;

describe('approvals over the admin API', () => {
  let r: TestReconciler;
  const keys: Record<string, string> = {};

  beforeAll(async () => {
    r = await startTestReconciler({ approvals: { requiredAbove: '1000' } });
    // Two people, each given an admin key by the admin token, each minting their own working keys with it: the
    // maker's operator key and the checker's approver keys share no minter.
    const mint = async (name: string, role: string, token = ADMIN_TOKEN) => {
      const made = await r.request('POST', '/admin/keys', { body: { name, role }, token });
      expect(made.status).toBe(201);
      keys[name] = made.json.key;
    };
    await mint('maker-admin', 'admin');
    await mint('checker-admin', 'admin');
    await mint('ops', 'operator', keys['maker-admin']);
    await mint('checker', 'approver', keys['checker-admin']);
    await mint('second-checker', 'approver', keys['checker-admin']);
  });
  afterAll(() => r.close());

  const create = (originId: number, amount: string, token = keys.ops, description = 'payout') =>
    r.request('POST', '/admin/transfers', { body: transferRequest({ originId, amount, description }), token });
  const decide = (originId: number, decision: 'approve' | 'reject', token: string, body?: unknown) =>
    r.request('POST', `/admin/transfers/${originId}/${decision}`, { token, ...(body !== undefined && { body }) });

  it('sends at once what is not above the threshold, and holds what is, sending nothing', async () => {
    const small = await create(5001, '1000.00');
    expect(small.status).toBe(201);
    expect(small.json.status).not.toBe('AWAITING_APPROVAL');
    expect(small.json.approval).toBeUndefined();
    expect(r.bank.ledger.entry(5001)).toBeDefined();

    const large = await create(5002, '1000.01');
    expect(large.status).toBe(201);
    expect(large.json).toMatchObject({
      status: 'AWAITING_APPROVAL',
      attempts: 0,
      nextQueryAt: null,
      approval: { decision: null, decidedBy: null, expiresAt: new Date(r.clock.now().getTime() + DAY).toISOString() },
      history: [{ from: null, to: 'AWAITING_APPROVAL', source: 'intent', by: { name: 'ops' } }],
    });
    // Sweeps, a refresh, the raw answer: nothing reaches the bank.
    r.clock.advance(60_000);
    expect((await r.request('POST', '/admin/reconcile')).status).toBe(200);
    expect((await r.request('POST', '/admin/transfers/5002/refresh', { token: keys.ops })).status).toBe(409);
    expect((await r.request('GET', '/admin/transfers/5002/raw', { token: keys.ops })).status).toBe(409);
    expect(r.bank.ledger.entry(5002)).toBeUndefined();
    // The same request again is a replay: still waiting, nothing more.
    const replay = await create(5002, '1000.01');
    expect(replay.status).toBe(200);
    expect(replay.json.status).toBe('AWAITING_APPROVAL');
    const waiting = await r.request('GET', '/admin/transfers?status=AWAITING_APPROVAL', { token: keys.checker });
    expect(waiting.json.items.map((item: { originId: number }) => item.originId)).toEqual([5002]);
    expect((await r.request('GET', '/metrics')).text).toContain('giro_transfers_awaiting_approval 1');
  });

  it('lets only an approver decide, never the key that created the transfer', async () => {
    const operator = await decide(5002, 'approve', keys.ops);
    expect(operator.status).toBe(403);
    expect(operator.json.requiredRole).toBe('approver');

    // The admin token may create, never approve; a key another person minted may approve what it created.
    expect((await create(5003, '2000.00', ADMIN_TOKEN)).status).toBe(201);
    const self = await decide(5003, 'approve', ADMIN_TOKEN);
    expect(self.status).toBe(403);
    expect(self.json).toMatchObject({ code: 'BOOTSTRAP_CANNOT_APPROVE', originId: 5003 });
    expect(r.bank.ledger.entry(5003)).toBeUndefined();
    expect((await decide(5003, 'approve', keys.checker)).status).toBe(200);
    expect(r.bank.ledger.entry(5003)).toBeDefined();
  });

  it('sends an approved transfer at once, records who approved it, and decides once', async () => {
    const approved = await decide(5002, 'approve', keys.checker);
    expect(approved.status).toBe(200);
    expect(approved.json.status).not.toBe('AWAITING_APPROVAL');
    expect(approved.json.approval).toMatchObject({ decision: 'approved', decidedBy: { name: 'checker' } });
    expect(approved.json.history[1]).toMatchObject({
      from: 'AWAITING_APPROVAL',
      to: 'PENDING',
      source: 'approval',
      by: { name: 'checker' },
    });
    expect(r.bank.ledger.entry(5002)).toBeDefined();

    const again = await decide(5002, 'approve', keys['second-checker']);
    expect(again.status).toBe(409);
    expect(again.json).toMatchObject({
      code: 'APPROVAL_NOT_AWAITED',
      originId: 5002,
      status: expect.not.stringMatching('AWAITING_APPROVAL'),
    });
  });

  it('rejects with a reason: REJECTED, never sent; a reason is required', async () => {
    await create(5004, '3000.00');
    const noReason = await decide(5004, 'reject', keys.checker, {});
    expect(noReason.status).toBe(400);
    expect(noReason.json.violations).toEqual([expect.objectContaining({ field: 'reason' })]);
    const rejected = await decide(5004, 'reject', keys.checker, { reason: 'payee not verified' });
    expect(rejected.status).toBe(200);
    expect(rejected.json).toMatchObject({
      status: 'REJECTED',
      approval: { decision: 'rejected', reason: 'payee not verified', decidedBy: { name: 'checker' } },
    });
    r.clock.advance(60_000);
    await r.request('POST', '/admin/reconcile');
    expect(r.bank.ledger.entry(5004)).toBeUndefined();
    expect((await decide(5004, 'approve', keys['second-checker'])).status).toBe(409);
  });

  it('decides several at once, each on its own', async () => {
    await create(5005, '1500.00');
    await create(5006, '1500.00');
    const bulk = await r.request('POST', '/admin/transfers/approve', {
      token: keys['second-checker'],
      body: { originIds: [5005, 5004, 5006] },
    });
    expect(bulk.status).toBe(200);
    expect(bulk.json.items.map((item: { originId: number; outcome: string }) => [item.originId, item.outcome])).toEqual(
      [
        [5005, 'approved'],
        [5004, 'refused'],
        [5006, 'approved'],
      ],
    );
    expect(bulk.json.items[1].error.name).toBe('ApprovalNotAwaitedError');
    expect(r.bank.ledger.entry(5005)).toBeDefined();
    expect(r.bank.ledger.entry(5006)).toBeDefined();
    const repeated = await r.request('POST', '/admin/transfers/reject', {
      token: keys.checker,
      body: { originIds: [5005, 5005], reason: 'twice' },
    });
    expect(repeated.status).toBe(400);
    expect(repeated.json.violations).toEqual([expect.objectContaining({ field: 'originIds[1]', rule: 'unique' })]);
  });

  it('records who asked, who decided and who was refused in the audit trail, in the change’s transaction', async () => {
    const audit = async (query: string) => (await r.request('GET', `/admin/audit?${query}`)).json.items;
    const [create] = await audit('originId=5002&action=transfer.create');
    expect(create).toMatchObject({
      actor: { name: 'ops', role: 'operator' },
      outcome: 'ok',
      before: null,
      after: { status: 'AWAITING_APPROVAL', amount: '1000.01' },
    });
    const approvals = await audit('originId=5002&action=transfer.approve');
    // Newest first: the second approver's 409, the approval, the operator's 403.
    expect(
      approvals.map((row: { actor: { name: string } | null; outcome: string; statusCode: number | null }) => [
        row.actor?.name,
        row.outcome,
        row.statusCode,
      ]),
    ).toEqual([
      ['second-checker', 'refused', 409],
      ['checker', 'ok', null],
      ['ops', 'refused', 403],
    ]);
    expect(approvals[1]).toMatchObject({ before: { status: 'AWAITING_APPROVAL' }, after: { status: 'PENDING' } });
    const [rejection] = await audit('originId=5004&action=transfer.reject&outcome=ok');
    expect(rejection.after).toEqual({ status: 'REJECTED', detail: { reason: 'payee not verified' } });
  });

  it('ends REJECTED, never sent, what no one approved within a day', async () => {
    await create(5007, '9000.00');
    r.clock.advance(DAY);
    const sweep = await r.request('POST', '/admin/reconcile');
    expect(sweep.json.expired).toBe(1);
    const expired = await r.request('GET', '/admin/transfers/5007');
    expect(expired.json).toMatchObject({
      status: 'REJECTED',
      approval: { decision: 'expired', decidedBy: null, reason: expect.stringMatching(/^not approved by /) },
    });
    expect((await decide(5007, 'approve', keys.checker)).json).toMatchObject({
      statusCode: 409,
      code: 'APPROVAL_NOT_AWAITED',
      status: 'REJECTED',
    });
    expect(r.bank.ledger.entry(5007)).toBeUndefined();
  });
});

describeOnEachEngine('approvals through the services', (engine) => {
  let clock: ManualClock;
  let bank: SandboxBank;
  let giro: Giro;
  const maker = { keyId: 'k_maker', name: 'maker' };
  const checker = { keyId: 'k_checker', name: 'checker' };

  beforeEach(async () => {
    clock = manualClock();
    bank = await startTestSandbox(clock);
    giro = await startGiro(
      await giroOptions(bank, clock, {
        databaseUrl: await engine.createDatabaseUrl(),
        approvals: { requiredAbove: 0 },
      }),
    );
  });
  afterEach(async () => {
    await giro.close();
    await bank.close();
  });

  it('holds every transfer with a threshold of 0 until another actor approves it', async () => {
    const { movement } = await giro.transfers.requestTransfer(sampleTransferRequest({ originId: 801 }), { by: maker });
    expect(movement.status).toBe('AWAITING_APPROVAL');
    const approvals = giro.app.get(ApprovalService);
    await expect(approvals.approve(801, maker)).rejects.toBeInstanceOf(SelfApprovalError);
    await giro.reconcile.sweep();
    expect(bank.ledger.entry(801)).toBeUndefined();
    const approved = await approvals.approve(801, checker);
    expect(approved.status).not.toBe('AWAITING_APPROVAL');
    expect(bank.ledger.entry(801)).toBeDefined();
  });
});
