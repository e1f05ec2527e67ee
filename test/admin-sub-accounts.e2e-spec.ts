import { completeCbuCvu } from '@giro/transfer-module';
import { startTestReconciler, type TestReconciler, transferRequest } from './support/reconciler-harness';

// PSP mode through the admin API over HTTP: the client sub-accounts (CVU) a registered payment service provider
// may send from, and without PSP mode the same routes refused as reserved to such providers.

const CLIENT_CVU = completeCbuCvu('0000003', '2000000000005');
const HOLDER = '20123456786';

const fromClient = (originId: number) => {
  const request = transferRequest({ originId });
  return {
    ...request,
    from: { ...request.from, address: CLIENT_CVU, owner: { personIdType: 'CUI', personId: HOLDER } },
  };
};

describe('client sub-accounts over the admin API', () => {
  describe('in PSP mode', () => {
    let r: TestReconciler;
    beforeAll(async () => {
      r = await startTestReconciler({ psp: true });
    });
    afterAll(() => r.close());

    it('registers, lists and disables a sub-account, and sends from it only while enabled', async () => {
      const refused = await r.request('POST', '/admin/transfers', { body: fromClient(3001) });
      expect(refused.status).toBe(400);
      expect(refused.json.violations.map((v: { field: string }) => v.field)).toEqual(['from.address']);

      const registered = await r.request('POST', '/admin/sub-accounts', {
        body: { address: CLIENT_CVU, ownerPersonId: HOLDER, ownerName: 'Ana Pérez' },
      });
      expect(registered.status).toBe(201);
      expect(registered.json).toMatchObject({ address: CLIENT_CVU, ownerPersonId: HOLDER, enabled: true });
      expect((await r.request('GET', '/admin/sub-accounts')).json).toEqual([registered.json]);

      const sent = await r.request('POST', '/admin/transfers', { body: fromClient(3002) });
      expect(sent.status).toBe(201);
      expect(r.bank.ledger.entry(3002)).toBeDefined();

      const disabled = await r.request('POST', `/admin/sub-accounts/${CLIENT_CVU}/disable`);
      expect(disabled.status).toBe(200);
      expect(disabled.json).toMatchObject({ enabled: false });
      expect((await r.request('POST', '/admin/transfers', { body: fromClient(3003) })).status).toBe(400);
      expect(r.bank.ledger.entry(3003)).toBeUndefined();
    });

    it('tells a form what may be sent: the currencies, the concepts, the source accounts and PSP mode', async () => {
      const options = await r.request('GET', '/admin/transfer-options');
      expect(options.status).toBe(200);
      expect(options.json).toMatchObject({
        currencies: ['032'],
        sourceAccounts: [
          { address: transferRequest().from.address, ownerPersonId: transferRequest().from.owner.personId },
        ],
        psp: true,
      });
      expect(options.json.concepts).toContain('VAR');
    });

    it('answers 400 for a CBU, 409 for another holder and 404 for an unknown address', async () => {
      const cbu = await r.request('POST', '/admin/sub-accounts', {
        body: { address: transferRequest().to.address, ownerPersonId: HOLDER },
      });
      expect(cbu.status).toBe(400);
      expect(cbu.json.message).toMatch(/only a CVU/);
      expect(cbu.json).toMatchObject({
        code: 'VALIDATION_FAILED',
        violations: [{ field: 'address', rule: 'cvu', params: { reason: 'cbu' } }],
      });
      const other = completeCbuCvu('0000003', '2000000000013');
      await r.request('POST', '/admin/sub-accounts', { body: { address: other, ownerPersonId: HOLDER } });
      const taken = await r.request('POST', '/admin/sub-accounts', {
        body: { address: other, ownerPersonId: '27123456780' },
      });
      expect(taken.json).toMatchObject({ statusCode: 409, code: 'SUB_ACCOUNT_CONFLICT', address: other });
      const unknown = await r.request(
        'POST',
        `/admin/sub-accounts/${completeCbuCvu('0000003', '2000000000021')}/disable`,
      );
      expect(unknown.json).toMatchObject({ statusCode: 404, code: 'SUB_ACCOUNT_NOT_FOUND' });
    });
  });

  describe('without PSP mode', () => {
    let r: TestReconciler;
    beforeAll(async () => {
      r = await startTestReconciler();
    });
    afterAll(() => r.close());

    it('tells a form that any source account is taken when none is configured', async () => {
      expect((await r.request('GET', '/admin/transfer-options')).json).toMatchObject({
        sourceAccounts: null,
        psp: false,
      });
    });

    it('refuses the sub-account routes: reserved to registered payment service providers', async () => {
      for (const [method, path] of [
        ['POST', '/admin/sub-accounts'],
        ['GET', '/admin/sub-accounts'],
        ['POST', `/admin/sub-accounts/${CLIENT_CVU}/disable`],
      ]) {
        const answer = await r.request(method, path, method === 'POST' ? { body: {} } : {});
        expect(answer.status).toBe(403);
        expect(answer.json.message).toMatch(/reserved to payment service providers registered with the central bank/);
      }
    });
  });
});
