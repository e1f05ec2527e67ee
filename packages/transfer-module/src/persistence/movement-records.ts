import {
  type DecimalAmount,
  type MovementStatus,
  PENDING_STATUS,
  SCHEDULED_STATUS,
  type TransferIntent,
} from '../domain';
import type {
  AnomalyResolutionEntity,
  CancellationEntity,
  HistorySource,
  MovementEntity,
  MovementHistoryEntity,
} from './entities';
import type { StatementConfirmation } from './statement-records';

// What MovementStore returns: plain objects (no TypeORM types), times as Dates, JSON columns parsed.

export interface MovementRecord {
  originId: number;
  /**
   * PENDING until the bank acknowledged the creation request, then the bank's status; AWAITING_APPROVAL before
   * an approver let it go, REJECTED when one refused it or none did in time.
   */
  status: MovementStatus;
  /** The intent exactly as recorded before the first send. */
  intent: TransferIntent;
  /** intentFingerprint(intent): compare it to tell a replay from a conflict. */
  fingerprint: string;
  amount: DecimalAmount;
  currencyId: string;
  bankMovementId: string | null;
  networkId: string | null;
  network: string | null;
  /** The DEBIN id a lookup by it learned (the bank's answer named this movement); null when none did. */
  debinId: string | null;
  /** As the bank sent them (ISO 8601 UTC). */
  postingDatetime: string | null;
  completedDatetime: string | null;
  /** The bank's last answer (parsed JSON), null before any. */
  lastBankAnswer: unknown;
  /** Sends of the creation request that may have reached the bank. */
  attempts: number;
  queries: number;
  lastError: string | null;
  lastAnswerAt: Date | null;
  /** Due for a sweep from then on; null once final, and while it awaits its approval. */
  nextQueryAt: Date | null;
  /** While AWAITING_APPROVAL: when it ends REJECTED if no one approves it. Null in every other status. */
  approvalExpiresAt: Date | null;
  /** When a scheduled transfer is (or was) released to the bank; null for one sent at once. */
  executeAt: Date | null;
  /**
   * No query, by a sweep or on demand, before then, whatever the polling rule on lastAnswerAt allows: set
   * when the movement was taken over from a worker that may have had an answer it never recorded. Null when
   * nothing holds queries back.
   */
  queriesHeldUntil: Date | null;
  leaseOwner: string | null;
  leaseExpiresAt: Date | null;
  version: number;
  createdAt: Date;
  updatedAt: Date;
}

/** A movement as a claim leased it. */
export interface ClaimedMovement extends MovementRecord {
  /**
   * When the claim took the lease over from a worker that never gave it back (it stopped or stalled, perhaps
   * after the bank answered a call it never recorded): when that lease expired. Null when the lease was free.
   */
  abandonedLeaseExpiredAt: Date | null;
  /**
   * The claim released it: SCHEDULED until then (its moment came), now PENDING with its first send counted, so
   * the worker sends it without counting the send again.
   */
  released: boolean;
}

/**
 * `entity` (as read before the claim) leased to `lease`; a SCHEDULED one released by the claim (MovementLeases'
 * CLAIM statement): PENDING, due since its moment, its first send counted.
 */
export function toClaimedMovement(
  entity: MovementEntity,
  lease: Pick<MovementEntity, 'leaseOwner' | 'leaseExpiresAtMs' | 'updatedAtMs'>,
): ClaimedMovement {
  const abandoned = entity.leaseOwner !== null && entity.leaseExpiresAtMs !== null;
  const released = entity.status === SCHEDULED_STATUS;
  const release: Partial<MovementEntity> = released
    ? {
        status: PENDING_STATUS,
        nextQueryAtMs: entity.executeAtMs,
        attempts: entity.attempts + 1,
        approvalExpiresAtMs: null,
      }
    : {};
  return {
    ...toMovementRecord({ ...entity, ...release, ...lease, version: entity.version + 1 }),
    abandonedLeaseExpiredAt: abandoned ? new Date(entity.leaseExpiresAtMs as number) : null,
    released,
  };
}

export interface HistoryRecord {
  id: number;
  originId: number;
  /** Null for the first row (the intent). */
  from: MovementStatus | null;
  /** For an anomaly: the status the bank claimed, which was not applied. */
  to: MovementStatus;
  at: Date;
  source: HistorySource;
  detail: unknown;
  /** Who made the change: the transfer's creator, an approver; null for giro's own work (sends, answers). */
  by: RecordedActor | null;
}

/** Who did something, as the store records it: an API key's public id and name (the admin API's actor), never a secret. */
export interface RecordedActor {
  keyId: string;
  name: string;
}

export interface CancellationRecord {
  originId: number;
  amount: DecimalAmount;
  currencyId: string;
  reasonCode: string | null;
  reasonMessage: string | null;
  createdAt: Date;
  /** When the host confirmed it registered the cancellation; null until then. */
  acknowledgedAt: Date | null;
  /** The host's own registration id, given with the acknowledgement; null when none was. */
  reference: string | null;
  /** Who acknowledged it; null before, or when the acknowledgement named no one. */
  acknowledgedBy: RecordedActor | null;
}

/** An anomaly closed by an operator: who, when and why. The anomaly itself (its history row) is unchanged. */
export interface AnomalyResolutionRecord {
  /** The anomaly's history row id. */
  historyId: number;
  at: Date;
  by: RecordedActor;
  note: string;
}

/** An anomaly (a history row with source `anomaly`) with its resolution. */
export interface AnomalyRecord {
  /** The history row's id: the anomaly's id. */
  id: number;
  originId: number;
  at: Date;
  /** The status the movement kept. */
  status: MovementStatus | null;
  /** What the bank claimed (not applied). */
  claimed: MovementStatus;
  detail: unknown;
  resolution: AnomalyResolutionRecord | null;
}

export interface MovementDetails extends MovementRecord {
  /** Oldest first. */
  history: HistoryRecord[];
  cancellation: CancellationRecord | null;
  /**
   * The resolutions of its anomalies (history rows with source `anomaly`) that have one. Absent when the details
   * were built from a write that read none back (a movement just created has no resolution).
   */
  resolutions?: AnomalyResolutionRecord[];
  /** The statement line that confirmed it; absent when none did, or when the details were built from a write. */
  statement?: StatementConfirmation;
}

const dateOrNull = (ms: number | null): Date | null => (ms === null ? null : new Date(ms));
const jsonOrNull = (text: string | null): unknown => (text === null ? null : JSON.parse(text));

export function toMovementRecord(entity: MovementEntity): MovementRecord {
  return {
    originId: entity.originId,
    status: entity.status,
    intent: JSON.parse(entity.intent) as TransferIntent,
    fingerprint: entity.fingerprint,
    amount: entity.amount as DecimalAmount,
    currencyId: entity.currencyId,
    bankMovementId: entity.bankMovementId,
    networkId: entity.networkId,
    debinId: entity.debinId,
    network: entity.network,
    postingDatetime: entity.postingDatetime,
    completedDatetime: entity.completedDatetime,
    lastBankAnswer: jsonOrNull(entity.lastBankAnswer),
    attempts: entity.attempts,
    queries: entity.queries,
    lastError: entity.lastError,
    lastAnswerAt: dateOrNull(entity.lastAnswerAtMs),
    nextQueryAt: dateOrNull(entity.nextQueryAtMs),
    approvalExpiresAt: dateOrNull(entity.approvalExpiresAtMs),
    executeAt: dateOrNull(entity.executeAtMs),
    queriesHeldUntil: dateOrNull(entity.queriesHeldUntilMs),
    leaseOwner: entity.leaseOwner,
    leaseExpiresAt: dateOrNull(entity.leaseExpiresAtMs),
    version: entity.version,
    createdAt: new Date(entity.createdAtMs),
    updatedAt: new Date(entity.updatedAtMs),
  };
}

export function toHistoryRecord(entity: MovementHistoryEntity): HistoryRecord {
  return {
    id: Number(entity.id),
    originId: entity.originId,
    from: entity.fromStatus,
    to: entity.toStatus,
    at: new Date(entity.atMs),
    source: entity.source,
    detail: jsonOrNull(entity.detail),
    by:
      entity.actorKeyId === null || entity.actorName === null
        ? null
        : { keyId: entity.actorKeyId, name: entity.actorName },
  };
}

export function toCancellationRecord(entity: CancellationEntity): CancellationRecord {
  return {
    originId: entity.originId,
    amount: entity.amount as DecimalAmount,
    currencyId: entity.currencyId,
    reasonCode: entity.reasonCode,
    reasonMessage: entity.reasonMessage,
    createdAt: new Date(entity.createdAtMs),
    acknowledgedAt: dateOrNull(entity.acknowledgedAtMs),
    reference: entity.reference,
    acknowledgedBy:
      entity.acknowledgedByKeyId === null || entity.acknowledgedByName === null
        ? null
        : { keyId: entity.acknowledgedByKeyId, name: entity.acknowledgedByName },
  };
}

export function toAnomalyResolutionRecord(entity: AnomalyResolutionEntity): AnomalyResolutionRecord {
  return {
    historyId: entity.historyId,
    at: new Date(entity.resolvedAtMs),
    by: { keyId: entity.resolvedByKeyId, name: entity.resolvedByName },
    note: entity.note,
  };
}

export function toAnomalyRecord(
  history: MovementHistoryEntity,
  resolution: AnomalyResolutionEntity | null,
): AnomalyRecord {
  const id = Number(history.id);
  return {
    id,
    originId: history.originId,
    at: new Date(history.atMs),
    status: history.fromStatus,
    claimed: history.toStatus,
    detail: jsonOrNull(history.detail),
    resolution: resolution === null ? null : toAnomalyResolutionRecord(resolution),
  };
}
