import {
  BankAuthError,
  BankConflictError,
  BankMalformedAnswerError,
  type BankMovement,
  BankMovementNotFoundError,
  BankNotSentError,
  BankOutcomeUnknownError,
  BankRateLimitedError,
  BankRejectedError,
  parseMovement,
} from '../bank';
import { movementAnswer } from '../bank/testing/bank-fixtures';
import { type BankStatus, type MovementStatus, PollingPolicy } from '../domain';
import type { MovementRecord } from '../persistence';
import { sampleIntent } from '../persistence/testing/sample-intent';
import { FAILED_BY_BANK, type PlanContext, planAnswer, planCreationFailure, planLookupFailure } from './movement-plan';
import { QuerySchedule } from './query-schedule';

const NOW = new Date(Date.UTC(2026, 0, 5, 10, 0, 0));
const MIN = 5_000;
const DELAYED_MIN = 600_000;
const schedule = new QuerySchedule(
  new PollingPolicy({ minIntervalMs: MIN, delayedMinIntervalMs: DELAYED_MIN, maxJitterMs: 0, maxBackoffMs: 60_000 }),
);
const context: PlanContext = { now: NOW, source: 'query', pressure: 0, schedule };
const at = (ms: number) => new Date(NOW.getTime() + ms);

/** The counterparty the fixture's answers name: the transfer's `to` unless a test says otherwise. */
const PAID = { address: '2850590940090418135201', personId: '27123456780' };

function record(status: MovementStatus, attempts = 1, to = PAID): MovementRecord {
  const { intent, fingerprint, amount } = sampleIntent(42, { to });
  return {
    originId: 42,
    status,
    intent,
    fingerprint,
    amount,
    currencyId: '032',
    bankMovementId: null,
    networkId: null,
    network: null,
    debinId: null,
    postingDatetime: null,
    completedDatetime: null,
    lastBankAnswer: null,
    attempts,
    queries: 0,
    lastError: null,
    lastAnswerAt: null,
    nextQueryAt: NOW,
    approvalExpiresAt: null,
    executeAt: null,
    queriesHeldUntil: null,
    leaseOwner: 'w',
    leaseExpiresAt: at(60_000),
    version: 2,
    createdAt: NOW,
    updatedAt: NOW,
  };
}

function answer(status: BankStatus): BankMovement {
  const parsed = parseMovement(movementAnswer(42, status, { completedDatetime: '2026-01-05T10:00:00Z' }));
  if (!parsed.ok) throw new Error('fixture answer must parse');
  return parsed.movement;
}

const operation = 'create-transfer-request' as const;

describe('planAnswer: who the bank says was paid', () => {
  const ASKED = { address: '2850590940090418135201', personId: '20123456786' };

  it('raises another counterparty CUIT as a counterparty_mismatch anomaly beside the status it applies', () => {
    const plan = planAnswer(record('IN_PROGRESS', 1, ASKED), answer('COMPLETED'), context);
    expect(plan.update.patch.status).toBe('COMPLETED');
    expect(plan.update.history).toEqual([
      { to: 'COMPLETED', source: 'query' },
      {
        to: 'COMPLETED',
        source: 'anomaly',
        detail: expect.objectContaining({
          kind: 'counterparty_mismatch',
          requested: ASKED,
          answered: { personId: PAID.personId, address: PAID.address },
          reason: expect.stringMatching(/the CUIT 27123456780 \(the transfer asked for 20123456786\)/),
        }),
      },
    ]);
    expect(plan.announcement).toMatchObject({ kind: 'changed', to: 'COMPLETED' });
  });

  it('raises another account, on an answer that changes nothing, once', () => {
    const asked = { address: '0000003110000000000427', personId: PAID.personId };
    const first = planAnswer(record('IN_PROGRESS', 1, asked), answer('IN_PROGRESS'), context);
    expect(first.update.history).toEqual([
      expect.objectContaining({
        source: 'anomaly',
        detail: expect.objectContaining({ kind: 'counterparty_mismatch' }),
      }),
    ]);
    expect(first.announcement).toMatchObject({ kind: 'anomaly', status: 'IN_PROGRESS' });
    // The stored answer already named it: not raised again.
    const seen = { ...record('IN_PROGRESS', 1, asked), lastBankAnswer: answer('IN_PROGRESS').raw };
    expect(planAnswer(seen, answer('COMPLETED'), context).update.history).toEqual([
      { to: 'COMPLETED', source: 'query' },
    ]);
  });

  it('teaches the payee book the holder when, and only when, the answer makes it COMPLETED', () => {
    expect(planAnswer(record('IN_PROGRESS'), answer('COMPLETED'), context).update.payee).toEqual({
      address: PAID.address,
      requestedPersonId: PAID.personId,
      holderPersonId: PAID.personId,
      holderName: 'Ana Pérez',
      amount: '1234.50',
    });
    expect(planAnswer(record('CREATED'), answer('IN_PROGRESS'), context).update.payee).toBeUndefined();
    expect(planAnswer(record('CREATED'), answer('FAILED'), context).update.payee).toBeUndefined();
  });
});

describe('planAnswer', () => {
  it('applies a newer status with the bank fields, timing the next query from the answer', () => {
    const plan = planAnswer(record('CREATED'), answer('IN_PROGRESS'), context);
    expect(plan).toMatchObject({
      failed: false,
      announcement: { kind: 'changed', from: 'CREATED', to: 'IN_PROGRESS', source: 'query' },
      update: {
        patch: {
          status: 'IN_PROGRESS',
          bankMovementId: 'mov-42',
          networkId: 'net-42',
          network: 'COELSA',
          lastAnswerAt: NOW,
          lastError: null,
          nextQueryAt: at(MIN),
        },
        history: [{ to: 'IN_PROGRESS', source: 'query' }],
      },
    });
    expect(plan.update.cancellation).toBeUndefined();
  });

  it('waits strictly more than the DELAYED interval after a DELAYED answer', () => {
    const plan = planAnswer(record('IN_PROGRESS'), answer('DELAYED'), context);
    expect(plan.update.patch.nextQueryAt).toEqual(at(DELAYED_MIN + 1));
  });

  it('makes FAILED come with its cancellation, and schedules nothing after a final', () => {
    const plan = planAnswer(record('IN_PROGRESS'), answer('FAILED'), context);
    expect(plan.update).toMatchObject({
      patch: { status: 'FAILED', nextQueryAt: null },
      cancellation: { code: null, message: FAILED_BY_BANK },
    });
  });

  it('stretches the next query under backlog pressure, never shrinks it', () => {
    const pressed = planAnswer(record('CREATED'), answer('IN_PROGRESS'), { ...context, pressure: 1.5 });
    expect(pressed.update.patch.nextQueryAt).toEqual(at(MIN * 2.5));
    const negative = planAnswer(record('CREATED'), answer('IN_PROGRESS'), { ...context, pressure: -3 });
    expect(negative.update.patch.nextQueryAt).toEqual(at(MIN));
  });

  it('keeps the status on the same answer, and records the answer time', () => {
    const plan = planAnswer(record('IN_PROGRESS'), answer('IN_PROGRESS'), context);
    expect(plan.announcement).toBeUndefined();
    expect(plan.update.patch).toMatchObject({ lastAnswerAt: NOW, nextQueryAt: at(MIN) });
    expect(plan.update.patch.status).toBeUndefined();
    expect(plan.update.history).toBeUndefined();
  });

  it('does not go back on an older answer, waiting for the longer of both rules', () => {
    const plan = planAnswer(record('DELAYED'), answer('CREATED'), context);
    expect(plan.update.patch.status).toBeUndefined();
    expect(plan.update.history).toBeUndefined();
    expect(plan.update.patch.nextQueryAt).toEqual(at(DELAYED_MIN + 1));
  });

  it.each([
    ['COMPLETED', 'FAILED'],
    ['COMPLETED', 'IN_PROGRESS'],
    ['FAILED', 'COMPLETED'],
  ] as const)('records %s answered as %s as an anomaly, never applied', (current, claimed) => {
    const plan = planAnswer(record(current), answer(claimed), { ...context, source: 'refresh' });
    expect(plan.update.patch).toEqual({ lastAnswerAt: NOW });
    expect(plan.update.cancellation).toBeUndefined();
    expect(plan.update.history).toEqual([
      {
        to: claimed,
        source: 'anomaly',
        detail: expect.objectContaining({ via: 'refresh', reason: expect.any(String) }),
      },
    ]);
    expect(plan.announcement).toMatchObject({ kind: 'anomaly', status: current, claimed, source: 'refresh' });
  });

  it.each([
    ['amount', { amount: 1234.51 }, /the amount 1234\.51, the transfer's is 1234\.50/],
    ['currency', { amountCurrency: '840' }, /the currency 840, the transfer's is 032/],
  ] as const)('never applies an answer naming another %s: an anomaly, asked again later', (_, details, reason) => {
    for (const [current, claimed] of [
      ['IN_PROGRESS', 'COMPLETED'],
      ['PENDING', 'FAILED'],
      ['CREATED', 'IN_PROGRESS'],
    ] as const) {
      const parsed = parseMovement(movementAnswer(42, claimed, details));
      if (!parsed.ok) throw new Error('fixture answer must parse');
      const plan = planAnswer(record(current), parsed.movement, context);
      expect(plan.update.patch).toEqual({
        lastAnswerAt: NOW,
        lastError: expect.stringMatching(reason),
        nextQueryAt: at(MIN),
      });
      expect(plan.update.cancellation).toBeUndefined();
      expect(plan.update.history).toEqual([
        {
          to: claimed,
          source: 'anomaly',
          detail: { reason: expect.stringMatching(reason), via: 'query', answer: parsed.movement.raw },
        },
      ]);
      expect(plan.announcement).toMatchObject({ kind: 'anomaly', status: current, claimed, source: 'query' });
    }
  });

  it('never applies an answer about another account than the transfer is sent from: an anomaly', () => {
    const from = record('IN_PROGRESS').intent.from.address;
    const about = (address: string) => {
      const parsed = parseMovement({
        ...movementAnswer(42, 'COMPLETED'),
        thisSubAccount: { accountRouting: { addressType: 'CBU', address } },
      });
      if (!parsed.ok) throw new Error('fixture answer must parse');
      return parsed.movement;
    };

    const other = planAnswer(record('IN_PROGRESS'), about('0000003100010000000001'), context);
    expect(other.update.patch).toEqual({
      lastAnswerAt: NOW,
      lastError: expect.stringMatching(/names the account 0000003100010000000001 \(thisSubAccount\)/),
      nextQueryAt: at(MIN),
    });
    expect(other.update.history).toEqual([
      { to: 'COMPLETED', source: 'anomaly', detail: expect.objectContaining({ via: 'query' }) },
    ]);
    expect(other.announcement).toMatchObject({ kind: 'anomaly', status: 'IN_PROGRESS', claimed: 'COMPLETED' });

    const same = planAnswer(record('IN_PROGRESS'), about(from), context);
    expect(same.update.patch.status).toBe('COMPLETED');
  });

  it('applies an answer naming the same money in another spelling (1234.5 is 1234.50)', () => {
    const parsed = parseMovement(movementAnswer(42, 'COMPLETED', { amount: 1234.5, amountCurrency: '032' }));
    if (!parsed.ok) throw new Error('fixture answer must parse');
    expect(planAnswer(record('IN_PROGRESS'), parsed.movement, context).announcement).toMatchObject({
      kind: 'changed',
      to: 'COMPLETED',
    });
  });

  it('notes a duplicate answer in the history', () => {
    const plan = planAnswer(
      record('PENDING'),
      answer('COMPLETED'),
      { ...context, source: 'resend' },
      { duplicate: true },
    );
    expect(plan.update.history).toEqual([{ to: 'COMPLETED', source: 'resend', detail: { duplicate: true } }]);
  });
});

describe('planCreationFailure', () => {
  const first = { failures: 1, earlierSendMayHaveReached: false };
  const again = { failures: 1, earlierSendMayHaveReached: true };
  const createContext = { ...context, source: 'create' as const };

  it('makes a business rejection FAILED with its cancellation, in one update', () => {
    const error = new BankRejectedError('rejected', {
      operation,
      httpStatus: 422,
      bankCode: 'TRANSFER_REJECTED',
      bankMessage: 'destination closed',
    });
    const plan = planCreationFailure(record('PENDING'), error, createContext, first);
    expect(plan).toMatchObject({
      failed: false,
      announcement: { kind: 'changed', from: 'PENDING', to: 'FAILED', source: 'create' },
      update: {
        patch: { status: 'FAILED', lastAnswerAt: NOW },
        history: [{ to: 'FAILED', source: 'create', detail: { httpStatus: 422, code: 'TRANSFER_REJECTED' } }],
        cancellation: { code: 'TRANSFER_REJECTED', message: 'destination closed' },
      },
    });
  });

  it('reads a 409: a duplicate when the code says so or an earlier send may have reached the bank', () => {
    const duplicateCode = new BankConflictError('conflict', {
      operation,
      httpStatus: 409,
      bankCode: 'DUP',
      isDuplicateCode: true,
    });
    const otherCode = new BankConflictError('conflict', {
      operation,
      httpStatus: 409,
      bankCode: 'LIMIT',
      isDuplicateCode: false,
    });
    for (const [error, attempt] of [
      [duplicateCode, first],
      [otherCode, again],
    ] as const) {
      const plan = planCreationFailure(record('PENDING'), error, createContext, attempt);
      expect(plan.update.patch.status).toBeUndefined();
      expect(plan.update.patch.lastError).toMatch(/resolving it by lookup/);
      expect(plan.update.uncountSend).toBeUndefined(); // the bank has it: it must be looked up before any re-send
      expect(plan.failed).toBe(true);
    }
    const rejection = planCreationFailure(record('PENDING'), otherCode, createContext, first);
    expect(rejection.update).toMatchObject({ patch: { status: 'FAILED' }, cancellation: { code: 'LIMIT' } });
  });

  it.each([
    ['not sent', new BankNotSentError('refused', { operation })],
    ['rate-limited', new BankRateLimitedError('429', { operation, httpStatus: 429 })],
    ['refused credentials', new BankAuthError('401', { operation, httpStatus: 401 })],
  ])('un-counts a send that was certainly not processed (%s) and retries it later', (_, error) => {
    const plan = planCreationFailure(record('PENDING'), error, createContext, first);
    expect(plan.update).toMatchObject({ uncountSend: true, patch: { lastError: expect.any(String) } });
    expect(plan.update.patch.status).toBeUndefined();
    expect(plan.update.patch.nextQueryAt?.getTime()).toBeGreaterThan(NOW.getTime());
  });

  it.each([
    ['a timeout or reset', new BankOutcomeUnknownError('reset', { operation })],
    ['a malformed answer', new BankMalformedAnswerError('truncated', { operation, httpStatus: 200 })],
    ['an unexpected error', new TypeError('boom')],
  ])('keeps the send counted after %s: the movement stays PENDING and is looked up', (_, error) => {
    const plan = planCreationFailure(record('PENDING'), error, createContext, first);
    expect(plan.update.uncountSend).toBeUndefined();
    expect(plan.update.patch.status).toBeUndefined();
    expect(plan.update.history).toBeUndefined();
    expect(plan.failed).toBe(true);
  });

  it('honours Retry-After, and backs off further with every failure in a row', () => {
    const limited = new BankRateLimitedError('429', { operation, httpStatus: 429, retryAfterMs: 30_000 });
    expect(planCreationFailure(record('PENDING'), limited, createContext, first).update.patch.nextQueryAt).toEqual(
      at(30_000),
    );
    const unknown = new BankOutcomeUnknownError('reset', { operation });
    const next = (failures: number) =>
      planCreationFailure(record('PENDING'), unknown, createContext, { failures, earlierSendMayHaveReached: false })
        .update.patch.nextQueryAt;
    expect(next(1)).toEqual(at(MIN + MIN));
    expect(next(3)).toEqual(at(MIN + 4 * MIN));
  });
});

describe('planLookupFailure', () => {
  it('never fails a movement because the bank does not find it', () => {
    const error = new BankMovementNotFoundError('404', { operation: 'get-movement', httpStatus: 404 });
    const plan = planLookupFailure(record('IN_PROGRESS'), error, context, 1);
    expect(plan.update.patch.status).toBeUndefined();
    expect(plan.update.patch.lastError).toMatch(/never FAILED/);
    expect(plan.update.patch.nextQueryAt).toEqual(at(MIN + MIN));
  });

  it('leaves a final movement unscheduled', () => {
    const error = new BankOutcomeUnknownError('reset', { operation: 'get-movement' });
    expect(planLookupFailure(record('COMPLETED'), error, context, 1).update.patch).toEqual({
      lastError: expect.stringContaining('reset'),
    });
  });
});
