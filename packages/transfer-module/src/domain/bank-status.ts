// The bank's states (docs/bank-api.md#states-and-polling) plus five local ones: PENDING, the intent is stored
// but the bank has not acknowledged it yet; AWAITING_APPROVAL, stored but never to be sent until a second person
// approves it (approval-policy.ts); SCHEDULED, stored and checked but not to be sent before its moment
// (execution-schedule.ts); REJECTED, refused or not approved in time, never sent; CANCELED, a scheduled transfer
// called off before its moment, never sent. COMPLETED, FAILED, REJECTED and CANCELED are final and absorbing.
export const BANK_STATUSES = ['CREATED', 'IN_PROGRESS', 'DELAYED', 'COMPLETED', 'FAILED'] as const;
export type BankStatus = (typeof BANK_STATUSES)[number];

export const PENDING_STATUS = 'PENDING';
export const AWAITING_APPROVAL_STATUS = 'AWAITING_APPROVAL';
export const SCHEDULED_STATUS = 'SCHEDULED';
export const REJECTED_STATUS = 'REJECTED';
export const CANCELED_STATUS = 'CANCELED';
export type MovementStatus =
  | typeof AWAITING_APPROVAL_STATUS
  | typeof SCHEDULED_STATUS
  | typeof PENDING_STATUS
  | BankStatus
  | typeof REJECTED_STATUS
  | typeof CANCELED_STATUS;
export const MOVEMENT_STATUSES: readonly MovementStatus[] = [
  AWAITING_APPROVAL_STATUS,
  SCHEDULED_STATUS,
  PENDING_STATUS,
  ...BANK_STATUSES,
  REJECTED_STATUS,
  CANCELED_STATUS,
];

export const FINAL_STATUSES = ['COMPLETED', 'FAILED', REJECTED_STATUS, CANCELED_STATUS] as const;
export type FinalStatus = (typeof FINAL_STATUSES)[number];

export function isBankStatus(value: unknown): value is BankStatus {
  return (BANK_STATUSES as readonly unknown[]).includes(value);
}

export function isMovementStatus(value: unknown): value is MovementStatus {
  return (MOVEMENT_STATUSES as readonly unknown[]).includes(value);
}

export function isFinalStatus(value: unknown): value is FinalStatus {
  return (FINAL_STATUSES as readonly unknown[]).includes(value);
}

/**
 * Whether a movement in `status` was never handed to the bank: not yet (awaiting its approval or its moment) or
 * never (rejected, canceled). No query, no send.
 */
export function isUnsentStatus(status: MovementStatus): boolean {
  return UNSENT_STATUSES.has(status);
}

const UNSENT_STATUSES: ReadonlySet<MovementStatus> = new Set([
  AWAITING_APPROVAL_STATUS,
  SCHEDULED_STATUS,
  REJECTED_STATUS,
  CANCELED_STATUS,
]);

// How far along a movement is. IN_PROGRESS and DELAYED share a rank: the bank may move either way
// between them. An answer with a lower rank is an older answer arriving late.
const RANK: Record<MovementStatus, number> = {
  AWAITING_APPROVAL: 0,
  SCHEDULED: 0,
  PENDING: 0,
  CREATED: 1,
  IN_PROGRESS: 2,
  DELAYED: 2,
  COMPLETED: 3,
  FAILED: 3,
  REJECTED: 3,
  CANCELED: 3,
};

export type TransitionDecision =
  | { kind: 'apply' }
  | { kind: 'unchanged' }
  /** An older answer (lower rank): not applied, not alarming. */
  | { kind: 'stale'; reason: string }
  /** A contradiction (a final status would change): never applied; record and raise it. */
  | { kind: 'anomaly'; reason: string };

/** What to do with the bank's `incoming` status for a movement now in `current`. */
export function decideTransition(current: MovementStatus, incoming: BankStatus): TransitionDecision {
  if (!isBankStatus(incoming)) {
    // Unreachable for typed callers; a malformed status must never be applied.
    return { kind: 'anomaly', reason: `${String(incoming)} is not a bank status (current ${current})` };
  }
  if (isUnsentStatus(current)) {
    // giro never sent it: whatever the bank says about it is not news about this movement.
    return { kind: 'anomaly', reason: `${current} was never sent, but the bank answers ${incoming}` };
  }
  if (incoming === current) return { kind: 'unchanged' };
  if (isFinalStatus(current)) {
    return { kind: 'anomaly', reason: `${current} is final, but the bank now answers ${incoming}` };
  }
  if (RANK[incoming] < RANK[current]) {
    return { kind: 'stale', reason: `${incoming} is older than the current ${current}` };
  }
  return { kind: 'apply' };
}
