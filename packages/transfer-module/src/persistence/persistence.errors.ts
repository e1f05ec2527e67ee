import type { LimitRefusal, MovementStatus } from '../domain';

/** A caller passed a value the store refuses; nothing was written. `field` and `rule` say which and why. */
export class StoreArgumentError extends RangeError {
  override readonly name = 'StoreArgumentError';

  constructor(
    readonly field: string,
    readonly rule: string,
    detail: string,
  ) {
    super(`${field} ${detail}`);
  }
}

/** No movement has this originId. */
export class MovementNotFoundError extends Error {
  override readonly name = 'MovementNotFoundError';

  constructor(readonly originId: number) {
    super(`no movement with originId ${originId}`);
  }
}

/** No cancellation for this originId (the movement is unknown or has not FAILED). */
export class CancellationNotFoundError extends Error {
  override readonly name = 'CancellationNotFoundError';

  constructor(readonly originId: number) {
    super(`no cancellation for originId ${originId}`);
  }
}

/** No anomaly (a history row with source `anomaly`) has this id. */
export class AnomalyNotFoundError extends Error {
  override readonly name = 'AnomalyNotFoundError';

  constructor(readonly anomalyId: number) {
    super(`no anomaly with id ${anomalyId}`);
  }
}

/** The anomaly was resolved already: its first resolution stays (who, when, the note), and is given here. */
export class AnomalyAlreadyResolvedError extends Error {
  override readonly name = 'AnomalyAlreadyResolvedError';

  constructor(
    readonly anomalyId: number,
    readonly resolution: { at: Date; by: { keyId: string; name: string }; note: string },
  ) {
    super(`anomaly ${anomalyId} was already resolved by "${resolution.by.name}" at ${resolution.at.toISOString()}`);
  }
}

/**
 * An update that would break a rule of the movement's life (a final status changed, FAILED without its
 * cancellation, a status change without its history row). A bug in the caller: nothing was written.
 */
export class MovementUpdateRejectedError extends Error {
  override readonly name = 'MovementUpdateRejectedError';

  constructor(
    readonly originId: number,
    reason: string,
  ) {
    super(`update of originId ${originId} refused: ${reason}`);
  }
}

/** No client sub-account is registered with this address. */
export class SubAccountNotFoundError extends Error {
  override readonly name = 'SubAccountNotFoundError';

  constructor(readonly address: string) {
    super(`no client sub-account ${address} is registered`);
  }
}

/** This address is registered already, to another holder: a sub-account never changes hands. */
export class SubAccountConflictError extends Error {
  override readonly name = 'SubAccountConflictError';

  constructor(readonly address: string) {
    super(`client sub-account ${address} is registered to another holder`);
  }
}

/** No webhook endpoint has this id. */
export class WebhookEndpointNotFoundError extends Error {
  override readonly name = 'WebhookEndpointNotFoundError';

  constructor(readonly endpointId: string) {
    super(`no webhook endpoint ${endpointId}`);
  }
}

/** No webhook delivery has this id. */
export class WebhookDeliveryNotFoundError extends Error {
  override readonly name = 'WebhookDeliveryNotFoundError';

  constructor(readonly deliveryId: number) {
    super(`no webhook delivery ${deliveryId}`);
  }
}

/** A new intent would pass a limit of its source account (`refusal` says which and what remains); nothing was stored. */
export class LimitExceededError extends Error {
  override readonly name = 'LimitExceededError';

  constructor(readonly refusal: LimitRefusal) {
    super(`transfer refused by the limits of ${refusal.address}: ${refusal.rule}`);
  }
}

/** The transfer is not AWAITING_APPROVAL (approved or rejected already, or it never waited): nothing was changed. */
export class ApprovalNotAwaitedError extends Error {
  override readonly name = 'ApprovalNotAwaitedError';

  constructor(
    readonly originId: number,
    readonly status: MovementStatus,
  ) {
    super(`transfer ${originId} is not awaiting approval: it is ${status}`);
  }
}

/** The transfer waited past its approval's expiry: it ends REJECTED (the next sweep writes it), never sent. */
export class ApprovalExpiredError extends Error {
  override readonly name = 'ApprovalExpiredError';

  constructor(
    readonly originId: number,
    readonly expiredAt: Date,
  ) {
    super(`the approval of transfer ${originId} expired at ${expiredAt.toISOString()}`);
  }
}

/** Maker–checker: the key that created a transfer cannot approve it. */
export class SelfApprovalError extends Error {
  override readonly name = 'SelfApprovalError';

  constructor(
    readonly originId: number,
    readonly keyId: string,
  ) {
    super(`transfer ${originId} was created by key ${keyId}: another approver must approve it`);
  }
}

/**
 * The movement was never sent and is not to be (AWAITING_APPROVAL, REJECTED): nothing to send again or to ask
 * the bank about. Nothing was changed.
 */
export class UnsentMovementError extends Error {
  override readonly name = 'UnsentMovementError';

  constructor(
    readonly originId: number,
    readonly status: MovementStatus,
  ) {
    super(`transfer ${originId} is ${status}: it was never sent to the bank`);
  }
}
