import fc from 'fast-check';
import {
  BANK_STATUSES,
  type BankStatus,
  decideTransition,
  isBankStatus,
  isFinalStatus,
  isMovementStatus,
  isUnsentStatus,
  MOVEMENT_STATUSES,
  type MovementStatus,
} from './bank-status';

describe('bank statuses', () => {
  it('knows the five bank states, the local ones (PENDING, AWAITING_APPROVAL, SCHEDULED, REJECTED, CANCELED), and the four finals', () => {
    expect([...BANK_STATUSES]).toEqual(['CREATED', 'IN_PROGRESS', 'DELAYED', 'COMPLETED', 'FAILED']);
    expect(isBankStatus('PENDING')).toBe(false);
    expect(isMovementStatus('PENDING')).toBe(true);
    expect(isBankStatus('completed')).toBe(false);
    expect(MOVEMENT_STATUSES.filter(isFinalStatus)).toEqual(['COMPLETED', 'FAILED', 'REJECTED', 'CANCELED']);
    expect(MOVEMENT_STATUSES.filter(isUnsentStatus)).toEqual([
      'AWAITING_APPROVAL',
      'SCHEDULED',
      'REJECTED',
      'CANCELED',
    ]);
  });

  it('never lets a final status change, whatever the bank answers afterwards', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...BANK_STATUSES), { maxLength: 30 }), (answers) => {
        let status: MovementStatus = 'PENDING';
        let finalReached: MovementStatus | undefined;
        for (const incoming of answers) {
          const decision = decideTransition(status, incoming);
          if (decision.kind === 'apply') status = incoming;
          if (finalReached !== undefined) {
            expect(status).toBe(finalReached);
            expect(decision.kind).toBe(incoming === finalReached ? 'unchanged' : 'anomaly');
          } else if (isFinalStatus(status)) {
            finalReached = status;
          }
        }
      }),
      { numRuns: 500 },
    );
  });

  // Expected decision for every (current, incoming) pair.
  const never = {
    CREATED: 'anomaly',
    IN_PROGRESS: 'anomaly',
    DELAYED: 'anomaly',
    COMPLETED: 'anomaly',
    FAILED: 'anomaly',
  };
  const table: Record<MovementStatus, Record<BankStatus, string>> = {
    AWAITING_APPROVAL: never,
    SCHEDULED: never,
    REJECTED: never,
    CANCELED: never,
    PENDING: { CREATED: 'apply', IN_PROGRESS: 'apply', DELAYED: 'apply', COMPLETED: 'apply', FAILED: 'apply' },
    CREATED: { CREATED: 'unchanged', IN_PROGRESS: 'apply', DELAYED: 'apply', COMPLETED: 'apply', FAILED: 'apply' },
    IN_PROGRESS: { CREATED: 'stale', IN_PROGRESS: 'unchanged', DELAYED: 'apply', COMPLETED: 'apply', FAILED: 'apply' },
    DELAYED: { CREATED: 'stale', IN_PROGRESS: 'apply', DELAYED: 'unchanged', COMPLETED: 'apply', FAILED: 'apply' },
    COMPLETED: {
      CREATED: 'anomaly',
      IN_PROGRESS: 'anomaly',
      DELAYED: 'anomaly',
      COMPLETED: 'unchanged',
      FAILED: 'anomaly',
    },
    FAILED: {
      CREATED: 'anomaly',
      IN_PROGRESS: 'anomaly',
      DELAYED: 'anomaly',
      COMPLETED: 'anomaly',
      FAILED: 'unchanged',
    },
  };
  const pairs = MOVEMENT_STATUSES.flatMap((current) =>
    BANK_STATUSES.map((incoming) => [current, incoming, table[current][incoming]] as const),
  );

  it.each(pairs)('%s then %s → %s', (current, incoming, kind) => {
    expect(decideTransition(current, incoming).kind).toBe(kind);
  });

  it('names both statuses in the reasons', () => {
    expect(decideTransition('COMPLETED', 'FAILED')).toEqual({
      kind: 'anomaly',
      reason: 'COMPLETED is final, but the bank now answers FAILED',
    });
    expect(decideTransition('FAILED', 'IN_PROGRESS')).toEqual({
      kind: 'anomaly',
      reason: 'FAILED is final, but the bank now answers IN_PROGRESS',
    });
    expect(decideTransition('DELAYED', 'CREATED')).toEqual({
      kind: 'stale',
      reason: 'CREATED is older than the current DELAYED',
    });
  });

  it('treats a status that is not a bank status as an anomaly, never applies it', () => {
    expect(decideTransition('IN_PROGRESS', 'PENDING' as BankStatus)).toEqual({
      kind: 'anomaly',
      reason: 'PENDING is not a bank status (current IN_PROGRESS)',
    });
  });
});
