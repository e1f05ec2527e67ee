import { movementAnswer } from '../bank/testing/bank-fixtures';
import type { MovementDetails } from '../persistence';
import { sampleIntent } from '../persistence/testing/sample-intent';
import { FAILED_BY_BANK } from './movement-plan';
import { toCancellationView, toMovementView } from './movement-view';

const { intent: INTENT, fingerprint: FINGERPRINT } = sampleIntent(42);

const at = (ms: number) => new Date(Date.UTC(2026, 10, 21, 12, 0, 0, ms));

function details(times: { created: number; answer: number; next: number | null; updated: number }): MovementDetails {
  return {
    originId: 42,
    status: 'IN_PROGRESS',
    intent: INTENT,
    fingerprint: FINGERPRINT,
    amount: INTENT.amount,
    currencyId: '032',
    bankMovementId: 'mv-42',
    networkId: 'net-42',
    network: null,
    debinId: null,
    postingDatetime: null,
    completedDatetime: null,
    lastBankAnswer: null,
    attempts: 1,
    queries: 0,
    lastError: null,
    lastAnswerAt: at(times.answer),
    nextQueryAt: times.next === null ? null : at(times.next),
    approvalExpiresAt: null,
    executeAt: null,
    queriesHeldUntil: null,
    leaseOwner: null,
    leaseExpiresAt: null,
    version: 2,
    createdAt: at(times.created),
    updatedAt: at(times.updated),
    history: [
      {
        id: 1,
        originId: 42,
        from: null,
        to: 'PENDING',
        at: at(times.created),
        source: 'intent',
        detail: null,
        by: null,
      },
      {
        id: 2,
        originId: 42,
        from: 'PENDING',
        to: 'IN_PROGRESS',
        at: at(times.answer),
        source: 'create',
        detail: null,
        by: null,
      },
      {
        id: 3,
        originId: 42,
        from: 'IN_PROGRESS',
        to: 'FAILED',
        at: at(times.updated),
        source: 'anomaly',
        detail: { reason: 'final elsewhere' },
        by: null,
      },
    ],
    cancellation: null,
  };
}

describe('toMovementView', () => {
  it('formats every time of the movement as its own ISO 8601 string, repeated or not', () => {
    // Views one after the other, with times that repeat within a view and between views.
    for (const times of [
      { created: 1, answer: 1, next: 1, updated: 1 },
      { created: 1, answer: 2, next: null, updated: 3 },
      { created: 5, answer: 4, next: 5, updated: 4 },
      { created: 1, answer: 1, next: 7, updated: 1 },
    ]) {
      const view = toMovementView(details(times));
      expect(view).toMatchObject({
        createdAt: at(times.created).toISOString(),
        lastAnswerAt: at(times.answer).toISOString(),
        nextQueryAt: times.next === null ? null : at(times.next).toISOString(),
        updatedAt: at(times.updated).toISOString(),
        history: [
          { from: null, to: 'PENDING', at: at(times.created).toISOString(), source: 'intent' },
          { from: 'PENDING', to: 'IN_PROGRESS', at: at(times.answer).toISOString(), source: 'create' },
        ],
        anomalies: [
          {
            id: 3,
            at: at(times.updated).toISOString(),
            status: 'IN_PROGRESS',
            claimed: 'FAILED',
            reason: 'final elsewhere',
            resolution: null,
          },
        ],
      });
    }
  });

  it("shows the bank's details from its latest answer, only those it gave", () => {
    const answer = {
      ...movementAnswer(42, 'COMPLETED', { completedDatetime: '2024-05-02T13:46:00Z', message: null }),
      thisSubAccount: {
        owners: { personId: '30712345671', personIdType: 'CUI', personName: 'Giro SA', personType: 'COMPANY' },
        accountRouting: { addressType: 'CBU', address: INTENT.from.address },
      },
    };
    const view = toMovementView({ ...details({ created: 1, answer: 1, next: 1, updated: 1 }), lastBankAnswer: answer });
    expect(view.bank).toEqual({
      movementId: 'mov-42',
      type: 'DEBIT_TRANSFER_SENT_CVU',
      typeDescription: 'Transferencia enviada',
      network: 'COELSA',
      networkId: 'net-42',
      postingDatetime: '2024-05-02T13:45:10.000Z',
      completedDatetime: '2024-05-02T13:46:00.000Z',
      motiveCode: 'ALQ',
      counterparty: {
        personId: '27123456780',
        personIdType: 'CUI',
        personName: 'Ana Pérez',
        accountRouting: { addressType: 'CBU_CVU', address: '2850590940090418135201' },
      },
      thisSubAccount: {
        owners: { personId: '30712345671', personIdType: 'CUI', personName: 'Giro SA', personType: 'COMPANY' },
        accountRouting: { addressType: 'CBU', address: INTENT.from.address },
      },
    });
  });

  it('shows no bank details before an answer, nor when the last thing stored is a refusal', () => {
    const base = details({ created: 1, answer: 1, next: 1, updated: 1 });
    expect(toMovementView(base).bank).toBeNull();
    const refusal = { httpStatus: 422, code: 'TRANSFER_REJECTED', message: 'refused' };
    expect(toMovementView({ ...base, lastBankAnswer: refusal }).bank).toBeNull();
    expect(toMovementView({ ...base, lastBankAnswer: { status: 'CREATED' } }).bank).toEqual({});
  });

  it('refuses an invalid date as toISOString does, also after a valid one', () => {
    toMovementView(details({ created: 1, answer: 1, next: 1, updated: 1 }));
    const broken = { ...details({ created: 1, answer: 1, next: 1, updated: 1 }), updatedAt: new Date(Number.NaN) };
    expect(() => toMovementView(broken)).toThrow(RangeError);
  });
});

describe('toCancellationView', () => {
  it('formats its times', () => {
    const view = toCancellationView({
      originId: 42,
      amount: INTENT.amount,
      currencyId: '032',
      reasonCode: 'R1',
      reasonMessage: 'refused',
      createdAt: at(9),
      acknowledgedAt: null,
      reference: null,
      acknowledgedBy: null,
    });
    expect(view).toEqual({
      originId: 42,
      amount: '1234.50',
      currencyId: '032',
      reason: { kind: 'refused', code: 'R1', message: 'refused' },
      createdAt: at(9).toISOString(),
      acknowledgedAt: null,
      reference: null,
      acknowledgedBy: null,
    });
  });
  it('says a FAILED status reported by the bank apart from a refused request, for a page that translates it', () => {
    const failed = toCancellationView({
      originId: 43,
      amount: INTENT.amount,
      currencyId: '032',
      reasonCode: null,
      reasonMessage: FAILED_BY_BANK,
      createdAt: at(9),
      acknowledgedAt: null,
      reference: null,
      acknowledgedBy: null,
    });
    expect(failed.reason).toEqual({ kind: 'failed', code: null, message: FAILED_BY_BANK });
    const refusedWithoutCode = toCancellationView({
      originId: 44,
      amount: INTENT.amount,
      currencyId: '032',
      reasonCode: null,
      reasonMessage: 'bank answered 422',
      createdAt: at(9),
      acknowledgedAt: null,
      reference: null,
      acknowledgedBy: null,
    });
    expect(refusedWithoutCode.reason.kind).toBe('refused');
  });
});

describe('anomalies in the view', () => {
  it('shows a resolved anomaly with its id, who resolved it, when and why', () => {
    const resolution = { historyId: 3, at: at(20), by: { keyId: 'abc', name: 'ops' }, note: 'checked with the bank' };
    const view = toMovementView({
      ...details({ created: 1, answer: 1, next: 1, updated: 1 }),
      resolutions: [resolution],
    });
    expect(view.anomalies).toEqual([
      expect.objectContaining({
        id: 3,
        resolution: { at: at(20).toISOString(), by: { keyId: 'abc', name: 'ops' }, note: 'checked with the bank' },
      }),
    ]);
  });

  it("shows what the bank said in an anomaly's answer, which the movement's own details (applied answers) do not", () => {
    const base = details({ created: 1, answer: 1, next: 1, updated: 1 });
    const claimed = movementAnswer(42, 'FAILED', { message: 'claimed elsewhere' });
    const view = toMovementView({
      ...base,
      lastBankAnswer: movementAnswer(42, 'IN_PROGRESS'),
      history: base.history.map((row) =>
        row.source === 'anomaly' ? { ...row, detail: { reason: 'final elsewhere', answer: claimed } } : row,
      ),
    });
    expect(view.anomalies[0].bank).toMatchObject({ movementId: 'mov-42', message: 'claimed elsewhere' });
    expect(view.bank?.message).not.toBe('claimed elsewhere');
    // An anomaly recorded without its answer shows none.
    expect(toMovementView(base).anomalies[0].bank).toBeNull();
  });
});
