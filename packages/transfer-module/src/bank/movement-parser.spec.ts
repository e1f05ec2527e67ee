import fc from 'fast-check';
import { BANK_STATUSES } from '../domain';
import { parseMovement } from './movement-parser';
import { movementAnswer } from './testing/bank-fixtures';

describe('parseMovement', () => {
  it('reads a movement, keeping the whole answer (unknown fields too) in raw', () => {
    const answer = {
      ...movementAnswer(1001, 'COMPLETED', { completedDatetime: '2024-05-02T13:46:00Z' }),
      novelty: { a: 1 },
    };

    const result = parseMovement(answer, { originId: 1001 });

    expect(result).toEqual({
      ok: true,
      movement: {
        status: 'COMPLETED',
        id: 'mov-1001',
        originId: 1001,
        networkId: 'net-1001',
        network: 'COELSA',
        type: 'DEBIT_TRANSFER_SENT_CVU',
        typeDescription: 'Transferencia enviada',
        amount: '1234.50',
        amountCurrency: '032',
        motiveCode: 'ALQ',
        message: 'rent',
        postingDatetime: new Date('2024-05-02T13:45:10Z'),
        completedDatetime: new Date('2024-05-02T13:46:00Z'),
        counterparty: {
          personId: '27123456780',
          personIdType: 'CUI',
          personName: 'Ana Pérez',
          addressType: 'CBU_CVU',
          address: '2850590940090418135201',
        },
        thisSubAccount: { personId: '20123456786', personIdType: 'CUI', personName: 'Giro SA', personType: 'LEGAL' },
        issues: [],
        raw: answer,
      },
    });
  });

  it('accepts a bare movement: only the status is required; null counts as absent', () => {
    const result = parseMovement({ status: 'CREATED', id: null, details: null });

    expect(result).toEqual({
      ok: true,
      movement: { status: 'CREATED', issues: [], raw: { status: 'CREATED', id: null, details: null } },
    });
  });

  it('reads null as absent, the money fields too: the bank does not say which fields are always present', () => {
    const answer = movementAnswer(1001, 'COMPLETED', {
      originId: null,
      networkId: null,
      amount: null,
      amountCurrency: null,
    });

    const result = parseMovement(answer, { originId: 1001, networkId: 'net-1001' });

    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.movement).not.toHaveProperty('originId');
    expect(result.movement).not.toHaveProperty('networkId');
    expect(result.movement).not.toHaveProperty('amount');
    expect(result.movement).not.toHaveProperty('amountCurrency');
  });

  it('flags an unusable timestamp or informational field as an issue and keeps it in raw', () => {
    const answer = movementAnswer(5, 'IN_PROGRESS', { postingDatetime: '02/05/2024 13:45', type: 7 });
    answer.counterparty.personName = 42 as never;
    (answer.counterparty as Record<string, unknown>).accountRouting = 'CBU_CVU 2850590940090418135201';

    const result = parseMovement(answer);

    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.movement.postingDatetime).toBeUndefined();
    expect(result.movement.type).toBeUndefined();
    expect(result.movement.counterparty?.personName).toBeUndefined();
    expect(result.movement.counterparty?.address).toBeUndefined();
    expect(result.movement.issues.map((issue) => [issue.field, issue.rule])).toEqual([
      ['details.type', 'type'],
      ['details.postingDatetime', 'timestamp'],
      ['counterparty.accountRouting', 'type'],
      ['counterparty.personName', 'type'],
    ]);
    expect((result.movement.raw.details as Record<string, unknown>).postingDatetime).toBe('02/05/2024 13:45');
  });

  it('reads thisSubAccount: its holder and the account it names', () => {
    const answer = {
      ...movementAnswer(7, 'COMPLETED'),
      thisSubAccount: {
        owners: { personId: '30712345671', personIdType: 'CUI', personName: 'Giro SA', personType: 'COMPANY' },
        accountRouting: { addressType: 'CVU', address: '0000003100010000000001' },
      },
    };

    const result = parseMovement(answer);

    expect(result.ok && result.movement.thisSubAccount).toEqual({
      personId: '30712345671',
      personIdType: 'CUI',
      personName: 'Giro SA',
      personType: 'COMPANY',
      addressType: 'CVU',
      address: '0000003100010000000001',
    });
  });

  it('flags an unusable holder of thisSubAccount as an issue: it names no account', () => {
    const answer = {
      ...movementAnswer(7, 'COMPLETED', { typeDescription: 12 }),
      thisSubAccount: { owners: 'Giro SA', accountRouting: { addressType: 5, address: '0000003100010000000001' } },
    };

    const result = parseMovement(answer);

    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.movement.thisSubAccount).toEqual({ address: '0000003100010000000001' });
    expect(result.movement.typeDescription).toBeUndefined();
    expect(result.movement.issues.map((issue) => issue.field)).toEqual([
      'thisSubAccount.owners',
      'thisSubAccount.accountRouting.addressType',
      'details.typeDescription',
    ]);
  });

  it.each<[string, unknown, string[]]>([
    ['not an object', 'COMPLETED', ['']],
    [
      'thisSubAccount not an object',
      { ...movementAnswer(1001, 'COMPLETED'), thisSubAccount: 'mine' },
      ['thisSubAccount'],
    ],
    [
      'the account of thisSubAccount not an object',
      { ...movementAnswer(1001, 'COMPLETED'), thisSubAccount: { accountRouting: '0000003100010000000001' } },
      ['thisSubAccount.accountRouting'],
    ],
    [
      'the account of thisSubAccount as a number (its leading zeros lost)',
      { ...movementAnswer(1001, 'COMPLETED'), thisSubAccount: { accountRouting: { address: 3100010000000001 } } },
      ['thisSubAccount.accountRouting.address'],
    ],
    ['no status', { id: 'x' }, ['status']],
    ['an unknown status', { status: 'SETTLED' }, ['status']],
    ['a lower-case status', { status: 'completed' }, ['status']],
    ['a numeric id', { status: 'COMPLETED', id: 7 }, ['id']],
    ['details not an object', { status: 'COMPLETED', details: 'x' }, ['details']],
    ['a fractional originId', movementAnswer(1.5, 'COMPLETED'), ['details.originId']],
    ['another originId', movementAnswer(1002, 'COMPLETED'), ['details.originId']],
    ['an empty networkId', movementAnswer(1001, 'FAILED', { networkId: '' }), ['details.networkId']],
    ['a negative amount', movementAnswer(1001, 'COMPLETED', { amount: -5 }), ['details.amount']],
    ['an amount sent as a string', movementAnswer(1001, 'COMPLETED', { amount: '1234.50' }), ['details.amount']],
    [
      'a currency sent as a number (032 read as 32)',
      movementAnswer(1001, 'COMPLETED', { amountCurrency: 32 }),
      ['details.amountCurrency'],
    ],
    ['an empty currency', movementAnswer(1001, 'COMPLETED', { amountCurrency: '' }), ['details.amountCurrency']],
    ['a currency in a list', movementAnswer(1001, 'FAILED', { amountCurrency: ['032'] }), ['details.amountCurrency']],
    [
      'several problems',
      { status: 'DONE', details: { originId: 'x', amount: 'lots' } },
      ['status', 'details.originId', 'details.amount'],
    ],
  ])('refuses %s', (_label, answer, fields) => {
    const result = parseMovement(answer, { originId: 1001 });

    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems.map((problem) => problem.field)).toEqual(fields);
  });

  it('never throws, and accepts only a known status, unchanged (a bad answer is never made final)', () => {
    const status = fc.oneof(fc.constantFrom(...BANK_STATUSES), fc.string(), fc.anything());
    const answer = fc.oneof(
      fc.anything(),
      fc.record(
        { status, id: fc.anything(), details: fc.oneof(fc.anything(), fc.dictionary(fc.string(), fc.anything())) },
        { requiredKeys: [] },
      ),
      fc.record({
        status,
        details: fc.record({ originId: fc.anything(), amount: fc.anything(), postingDatetime: fc.anything() }),
      }),
    );
    fc.assert(
      fc.property(answer, (value) => {
        const result = parseMovement(value);
        if (result.ok) {
          expect(BANK_STATUSES).toContain(result.movement.status);
          expect(result.movement.status).toBe((value as { status: unknown }).status);
        } else {
          expect(result.problems.length).toBeGreaterThan(0);
        }
      }),
    );
  });

  it('accepts an answer only with its money as the bank types it: amount a JSON number, currency a string', () => {
    const amount = fc.oneof(fc.anything(), fc.double(), fc.constantFrom(1234.5, '1234.50', null));
    const amountCurrency = fc.oneof(fc.anything(), fc.constantFrom('032', 32, '', null));
    const status = fc.constantFrom(...BANK_STATUSES);
    fc.assert(
      fc.property(status, amount, amountCurrency, (status, amount, amountCurrency) => {
        const result = parseMovement(movementAnswer(1001, status, { amount, amountCurrency }), { originId: 1001 });
        if (!result.ok) return;
        // Read from a JSON number and a string only, never coerced from another type (absent and null aside).
        if (amount !== undefined && amount !== null) expect(typeof amount).toBe('number');
        if (amountCurrency !== undefined && amountCurrency !== null) {
          expect(result.movement.amountCurrency).toBe(amountCurrency);
        }
      }),
    );
  });
});
