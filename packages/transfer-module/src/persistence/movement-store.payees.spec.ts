import { completeCbuCvu } from '../domain';
import { engineAdapterFor } from './engine/engine-adapter';
import type { PayeePayment } from './payee-book';
import { PayeeNotFoundError, SelfApprovalError } from './persistence.errors';
import { OTHER_DESTINATION, SAMPLE_DESTINATION, sampleIntent } from './testing/sample-intent';
import { type StoreFixture, storeFixture, T0 } from './testing/store-fixture';
import { describeEachEngine } from './testing/test-engines';

// The payee book in the store: learned in the transaction that makes a transfer COMPLETED (and only then), the
// names the bank gave kept when they change; searched by account, CUIT, name or label, a keyset page at a time;
// blocked, unblocked and approved as a payee.

const LEASE = 30_000;
const APPROVER = { keyId: 'k_checker', name: 'checker' };
const MAKER = { keyId: 'k_maker', name: 'maker' };
const HOUR = 3_600_000;

describeEachEngine('MovementStore payee book', (engine) => {
  let fixture: StoreFixture;

  beforeEach(async () => {
    fixture = await storeFixture(engine);
  });

  /** Records and leases a transfer to `to`, then applies `status` with what the payee book would learn. */
  async function answered(
    originId: number,
    status: 'IN_PROGRESS' | 'COMPLETED' | 'FAILED',
    payee: Partial<PayeePayment> = {},
    to = SAMPLE_DESTINATION,
  ) {
    const { intent, fingerprint } = sampleIntent(originId, { to });
    await fixture.store.recordIntent(intent, fingerprint, { sendNow: false });
    expect(await fixture.store.claim(originId, 'w', LEASE)).not.toBeNull();
    return fixture.store.applyUpdate(originId, 'w', {
      patch: { status, lastAnswerAt: fixture.clock.now() },
      history: [{ to: status, source: 'query' }],
      ...(status === 'FAILED' && { cancellation: { code: null, message: 'failed' } }),
      payee: { address: to.address, requestedPersonId: to.personId, amount: intent.amount, ...payee },
      releaseLease: true,
    });
  }

  it('learns the holder as the bank named them when a transfer becomes COMPLETED, never before', async () => {
    await answered(1, 'IN_PROGRESS', { holderName: 'Not yet' });
    expect(await fixture.store.findPayee(SAMPLE_DESTINATION.address)).toBeNull();
    expect(await fixture.store.payeeGate(SAMPLE_DESTINATION.address)).toEqual({ blocked: false, known: false });
    fixture.clock.advance(1_000);
    await answered(2, 'COMPLETED', { holderPersonId: SAMPLE_DESTINATION.personId, holderName: 'Juana Pérez' });
    const payee = await fixture.store.findPayee(SAMPLE_DESTINATION.address);
    expect(payee).toMatchObject({
      address: SAMPLE_DESTINATION.address,
      requestedPersonId: SAMPLE_DESTINATION.personId,
      holderPersonId: SAMPLE_DESTINATION.personId,
      holderName: 'Juana Pérez',
      previousNames: [],
      nameChangedAt: null,
      firstPaidAt: new Date(T0 + 1_000),
      lastPaidAt: new Date(T0 + 1_000),
      completedCount: 1,
      completedAmount: '1234.50',
      blockedAt: null,
      approvedAt: null,
    });
    expect(await fixture.store.payeeGate(SAMPLE_DESTINATION.address)).toEqual({ blocked: false, known: true });
  });

  it('keeps the names the bank gave before when it names the holder otherwise, and adds up what was paid', async () => {
    await answered(1, 'COMPLETED', { holderName: 'Juana Pérez' });
    fixture.clock.advance(60_000);
    await answered(2, 'COMPLETED', { holderName: 'Juana Perez SRL' });
    fixture.clock.advance(60_000);
    await answered(3, 'COMPLETED', {});
    const payee = await fixture.store.findPayee(SAMPLE_DESTINATION.address);
    expect(payee).toMatchObject({
      holderName: 'Juana Perez SRL',
      previousNames: ['Juana Pérez'],
      nameChangedAt: new Date(T0 + 60_000),
      firstPaidAt: new Date(T0),
      lastPaidAt: new Date(T0 + 120_000),
      completedCount: 3,
      completedAmount: '3703.50',
    });
  });

  it('learns nothing from a FAILED transfer', async () => {
    await answered(1, 'FAILED', { holderName: 'Juana Pérez' });
    expect(await fixture.store.findPayee(SAMPLE_DESTINATION.address)).toBeNull();
  });

  it('searches by the start of an account, a CUIT, a name or a label (case and accents ignored), a page at a time', async () => {
    await answered(1, 'COMPLETED', { holderPersonId: SAMPLE_DESTINATION.personId, holderName: 'Juana Pérez' });
    await answered(2, 'COMPLETED', { holderName: 'Distribuidora Norte SA' }, OTHER_DESTINATION);
    const third = completeCbuCvu('0170001', '0000000000099');
    await fixture.store.addPayee({ address: third, personId: null, label: 'Alquiler oficina' });
    const addresses = async (q?: string, after?: string, limit = 10) => {
      const page = await fixture.store.searchPayees({ ...(q !== undefined && { q }), limit, ...(after && { after }) });
      return { addresses: page.items.map((item) => item.address), nextCursor: page.nextCursor };
    };
    const all = [SAMPLE_DESTINATION.address, OTHER_DESTINATION.address, third].sort();
    expect((await addresses()).addresses).toEqual(all);
    expect((await addresses('juana')).addresses).toEqual([SAMPLE_DESTINATION.address]);
    expect((await addresses('JUANA PER')).addresses).toEqual([SAMPLE_DESTINATION.address]);
    expect((await addresses('perez')).addresses).toEqual([]); // the start of the name, not a word inside it
    expect((await addresses('distri')).addresses).toEqual([OTHER_DESTINATION.address]);
    expect((await addresses('alquiler')).addresses).toEqual([third]);
    expect((await addresses(OTHER_DESTINATION.personId)).addresses).toEqual([OTHER_DESTINATION.address]);
    expect((await addresses('0170001')).addresses).toEqual([third]);
    expect((await addresses('0000003')).addresses).toEqual(
      [SAMPLE_DESTINATION.address, OTHER_DESTINATION.address].sort(),
    );
    expect((await addresses('nadie')).addresses).toEqual([]);
    const first = await addresses(undefined, undefined, 2);
    expect(first).toEqual({ addresses: all.slice(0, 2), nextCursor: all[1] });
    expect(await addresses(undefined, first.nextCursor ?? undefined, 2)).toEqual({
      addresses: all.slice(2),
      nextCursor: null,
    });
  });

  it('walks every page of a common prefix once, by the name or label matched then the account', async () => {
    // Names and labels sharing the prefix, some payees matched by both (listed by their name), others before and
    // after it in both indexes.
    const entries = Array.from({ length: 23 }, (_, i) => ({
      address: completeCbuCvu(`0${String(40 - i).padStart(2, '0')}0001`, String(i).padStart(13, '0')),
      name: i % 3 === 0 ? null : `${['maria', 'marcos', 'ana', 'martin', 'nadia'][i % 5]} ${i % 4}`,
      label: i % 2 === 0 ? `${['mar del plata', 'mariano', 'otro'][i % 3]} ${i % 7}` : null,
    }));
    const insert = engineAdapterFor(fixture.dataSource).sql(`INSERT INTO "giro_payees" ("address", "holder_name",
      "name_key", "label", "label_key", "created_at_ms", "updated_at_ms") VALUES (?, ?, ?, ?, ?, ?, ?)`);
    for (const entry of entries) {
      const row = [entry.address, entry.name, entry.name, entry.label, entry.label, T0, T0];
      await fixture.dataSource.query(insert, row);
    }
    const matchKey = (entry: (typeof entries)[number]) =>
      entry.name?.startsWith('mar') ? entry.name : entry.label?.startsWith('mar') ? entry.label : null;
    const expected = entries
      .filter((entry) => matchKey(entry) !== null)
      .sort((a, b) => ((matchKey(a) ?? '') + a.address < (matchKey(b) ?? '') + b.address ? -1 : 1))
      .map((entry) => entry.address);
    expect(expected.length).toBeGreaterThan(10);
    const walked: string[] = [];
    let after: string | undefined;
    for (let pages = 0; pages < expected.length; pages++) {
      const page = await fixture.store.searchPayees({ q: 'MAR', limit: 3, ...(after !== undefined && { after }) });
      walked.push(...page.items.map((item) => item.address));
      if (page.nextCursor === null) break;
      after = page.nextCursor;
    }
    expect(walked).toEqual(expected);
    // An address the book does not know is no position of a search by name.
    expect((await fixture.store.searchPayees({ q: 'mar', limit: 3, after: '9'.repeat(22) })).items).toEqual([]);
  });

  it('labels an entry by hand without changing what was learned', async () => {
    await answered(1, 'COMPLETED', { holderName: 'Juana Pérez' });
    const labelled = await fixture.store.addPayee({
      address: SAMPLE_DESTINATION.address,
      personId: null,
      label: 'Alquiler',
    });
    expect(labelled).toMatchObject({ label: 'Alquiler', holderName: 'Juana Pérez', completedCount: 1 });
    expect(labelled.requestedPersonId).toBe(SAMPLE_DESTINATION.personId);
  });

  it('blocks an account never paid, keeps the first block, unblocks it; unblocking an unknown one is refused', async () => {
    const address = OTHER_DESTINATION.address;
    await expect(fixture.store.setPayeeBlocked(address, false, APPROVER)).rejects.toBeInstanceOf(PayeeNotFoundError);
    const blocked = await fixture.store.setPayeeBlocked(address, true, APPROVER);
    expect(blocked).toMatchObject({ blockedAt: new Date(T0), blockedBy: APPROVER });
    fixture.clock.advance(1_000);
    await fixture.store.setPayeeBlocked(address, true, { keyId: 'k_other', name: 'other' });
    expect(await fixture.store.findPayee(address)).toMatchObject({ blockedAt: new Date(T0), blockedBy: APPROVER });
    expect(await fixture.store.payeeGate(address)).toEqual({ blocked: true, known: false });
    expect(await fixture.store.setPayeeBlocked(address, false, APPROVER)).toMatchObject({ blockedAt: null });
    expect(await fixture.store.payeeGate(address)).toEqual({ blocked: false, known: false });
  });

  it('approves the payee with a transfer held as a new payee, in the same decision; never for its creator', async () => {
    const hold = async (originId: number, holds: ('amount' | 'new_payee')[], to = SAMPLE_DESTINATION) => {
      const { intent, fingerprint } = sampleIntent(originId, { to });
      await fixture.store.recordIntent(intent, fingerprint, {
        sendNow: false,
        awaitingApproval: { expiresAtMs: T0 + HOUR, holds },
        by: MAKER,
      });
    };
    await hold(1, ['amount', 'new_payee']);
    expect((await fixture.store.findByOriginId(1))?.history[0].detail).toEqual({ holds: ['amount', 'new_payee'] });
    await expect(fixture.store.decideApproval(1, { kind: 'approve', by: MAKER })).rejects.toBeInstanceOf(
      SelfApprovalError,
    );
    expect(await fixture.store.findPayee(SAMPLE_DESTINATION.address)).toBeNull();
    await fixture.store.decideApproval(1, { kind: 'approve', by: APPROVER });
    expect(await fixture.store.findPayee(SAMPLE_DESTINATION.address)).toMatchObject({
      requestedPersonId: SAMPLE_DESTINATION.personId,
      approvedAt: new Date(T0),
      approvedBy: APPROVER,
      completedCount: 0,
    });
    expect(await fixture.store.payeeGate(SAMPLE_DESTINATION.address)).toEqual({ blocked: false, known: true });
    // Held for its amount alone: its approval says nothing about the payee.
    await hold(2, ['amount'], OTHER_DESTINATION);
    expect((await fixture.store.findByOriginId(2))?.history[0].detail).toBeNull();
    await fixture.store.decideApproval(2, { kind: 'approve', by: APPROVER });
    expect(await fixture.store.findPayee(OTHER_DESTINATION.address)).toBeNull();
  });
});
