import type { AnomalyKind, DecimalAmount, MovementStatus } from '../domain';
import type { HistorySource } from './entities';
import type { CancellationRecord, HistoryRecord, MovementRecord, RecordedActor } from './movement-records';
import type { PayeePayment } from './payee-book';

// What callers hand to MovementStore and what its intents, updates and pages return (the records themselves
// are in movement-records.ts).

export type RecordIntentOptions =
  /** The caller sends right after this commit: the movement is leased to it and counted as one send. */
  (
    | { sendNow: true; owner: string; leaseMs: number }
    /** A sweep will send it (it is due at once). */
    | { sendNow: false }
    /**
     * Stored AWAITING_APPROVAL: never sent, never due, until an approver approves it (then it is due at once), or
     * REJECTED at `expiresAtMs` (epoch ms) when no one did.
     */
    | {
        sendNow: false;
        awaitingApproval: { expiresAtMs: number; holds?: ApprovalHold[] };
        scheduled?: { executeAtMs: number };
      }
    /**
     * Stored SCHEDULED: checked, its limits counted on the day of `executeAtMs`, never sent and never due until
     * a sweep releases it at that moment (then it is due at once), unless canceled before.
     */
    | { sendNow: false; scheduled: { executeAtMs: number } }
  ) & {
    /** Who asks for the transfer (recorded on its first history row; an approver must be someone else). */
    by?: RecordedActor;
  };

/**
 * Why a transfer waits for an approval, recorded on its first history row: `amount` (above the approvals threshold),
 * `new_payee` (its account was never paid nor approved as a payee). Approving a `new_payee` hold approves the payee.
 */
export const APPROVAL_HOLDS = ['amount', 'new_payee'] as const;
export type ApprovalHold = (typeof APPROVAL_HOLDS)[number];

/** The holds of a transfer from its intent row's detail (parsed); a row without them was held for its amount. */
export function approvalHoldsOf(detail: unknown): ApprovalHold[] {
  const holds = (detail as { holds?: unknown } | null)?.holds;
  return Array.isArray(holds) ? (holds as ApprovalHold[]) : ['amount'];
}

export type RecordIntentResult =
  /** `history`: the one row written, null → PENDING (or AWAITING_APPROVAL, or SCHEDULED). */
  | { created: true; movement: MovementRecord; history: HistoryRecord[] }
  /** The originId was already stored: `movement` is that row, untouched (compare fingerprints). */
  | { created: false; movement: MovementRecord };

export interface ClaimDueOptions {
  owner: string;
  limit: number;
  leaseMs: number;
  /** "Now" for the lease (default: the store's clock); also for due-ness when `dueBy` is absent. */
  now?: Date;
  /**
   * Claim only movements with nextQueryAt ≤ dueBy (default: `now`). A sweep passes its start time, so what
   * it answered (due again after the start) is not claimed again within it. Leases still expire by `now`.
   */
  dueBy?: Date;
  /**
   * Creations (PENDING) due by then are claimed (default `dueBy`): a sweep passes the claim's own time, so that a
   * transfer released or approved while it runs goes in its next batch. A creation it sent is not due again at once.
   */
  creationsDueBy?: Date;
  /** False: no creation (PENDING) is claimed, only movements to follow up (outside the bank's hours). Default true. */
  creations?: boolean;
  /** Source accounts' weights in the creations' round robin (how many a round takes of each; default 1). */
  accountWeights?: ReadonlyMap<string, number>;
}

/** Fields of a movement an update may set; absent = unchanged, null = cleared. */
export interface MovementPatch {
  status?: MovementStatus;
  bankMovementId?: string | null;
  networkId?: string | null;
  network?: string | null;
  /** The DEBIN id a lookup by it learned. */
  debinId?: string | null;
  postingDatetime?: string | null;
  completedDatetime?: string | null;
  /** Any JSON value (stored as JSON text). */
  lastBankAnswer?: unknown;
  lastError?: string | null;
  lastAnswerAt?: Date | null;
  /** Ignored once the status is final: a final movement is never due again (null). */
  nextQueryAt?: Date | null;
  queriesHeldUntil?: Date | null;
}

/** A history row to append; `from` is the status before the update, `at` the store's clock. */
export interface HistoryEntry {
  to: MovementStatus;
  source: HistorySource;
  /** Any JSON value. */
  detail?: unknown;
}

export interface CancellationReason {
  code: string | null;
  message: string | null;
}

export interface MovementUpdate {
  patch: MovementPatch;
  /** Required to contain a non-anomaly entry `to` the new status whenever the status changes. */
  history?: HistoryEntry[];
  /** Required exactly when the status becomes FAILED: written in the same transaction. */
  cancellation?: CancellationReason;
  /** Count one get-movement query. */
  countQuery?: boolean;
  /**
   * The send counted by `recordIntent` / `markSendAttempt` was certainly not processed (not sent, 429, 401):
   * `attempts` goes back down by one, so it keeps counting only sends that may have reached the bank.
   */
  uncountSend?: boolean;
  /** Give the lease up in the same write (the work on this movement is done for now). */
  releaseLease: boolean;
  /**
   * A final COMPLETED answer: what the payee book learns from it, in the same transaction, when this update is the
   * one that makes the movement COMPLETED.
   */
  payee?: PayeePayment;
}

export type ApplyUpdateResult =
  /** `history`: the rows this update appended, oldest first. */
  | { applied: true; movement: MovementRecord; history: HistoryRecord[]; cancellation: CancellationRecord | null }
  /** The lease is not (or no longer) the caller's: nothing was written. */
  | { applied: false };

/**
 * The order of a page of movements: by originId (the default), by creation time, oldest or newest first, or by the
 * moment a scheduled transfer is (or was) sent, earliest first (`executeAt`: only the transfers that have one).
 */
export const MOVEMENT_SORTS = ['originId', 'createdAt', '-createdAt', 'executeAt'] as const;
export type MovementSort = (typeof MOVEMENT_SORTS)[number];

/** What an operator searches movements by; every field given must match (AND). */
export interface MovementSearch {
  status?: MovementStatus;
  /** Only the movements the network identified by this id (`details.networkId`; a partial index serves it). */
  networkId?: string;
  /** Only the movement a lookup by this DEBIN id named (`debinId`; a partial index serves it). */
  debinId?: string;
  originId?: number;
  /** Created at or after this instant. */
  createdFrom?: Date;
  /** Created before this instant. */
  createdBefore?: Date;
  /** A scheduled transfer sent (or to be sent) at or after this instant. */
  executeFrom?: Date;
  /** A scheduled transfer sent (or to be sent) before this instant. */
  executeBefore?: Date;
  /** Amount at least this much (a canonical decimal, like the intent's). */
  amountMin?: DecimalAmount;
  /** Amount at most this much. */
  amountMax?: DecimalAmount;
  /** The source account's CBU or CVU. */
  fromAddress?: string;
  /** The destination's CBU or CVU. */
  toAddress?: string;
  /** The CUIT or CUIL of either party. */
  personId?: string;
  /** Text the description holds, case-insensitively (ASCII letters). */
  text?: string;
}

export interface ListMovementsOptions extends MovementSearch {
  limit: number;
  /** The `nextCursor` of the previous page (of the same sort). */
  after?: string;
  sort?: MovementSort;
}

export interface MovementPage<T = MovementRecord> {
  /** In the order asked (`sort`; by originId, ascending, by default). */
  items: T[];
  /** Pass as `after` for the next page; null on the last page. */
  nextCursor: string | null;
}

export interface ListAnomaliesOptions {
  /** Only resolved (true) or unresolved (false) anomalies; both by default, unresolved first. */
  resolved?: boolean;
  /** Only this movement's. */
  originId?: number;
  /** Only anomalies of this kind (domain/anomaly-kinds.ts). */
  kind?: AnomalyKind;
  limit: number;
  /** The `nextCursor` of the previous page. */
  after?: string;
}

export interface ListCancellationsOptions {
  /** Only acknowledged (true) or unacknowledged (false) cancellations. */
  acknowledged?: boolean;
  limit: number;
  /** The `nextCursor` of the previous page. */
  after?: string;
}

/** An acknowledgement of a cancellation: the host's registration id and who acknowledged, both optional. */
export interface CancellationAcknowledgement {
  /** At most 100 characters, no control characters. */
  reference?: string;
  by?: { keyId: string; name: string };
}
