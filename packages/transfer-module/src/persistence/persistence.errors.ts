import {
  GiroError,
  type LimitRefusal,
  type MovementStatus,
  type SamePersonRelation,
  type ViolationParams,
} from '../domain';

/**
 * A caller passed a value the store refuses; nothing was written. `field` and `rule` say which and why, `params`
 * the values the refusal names (a TransferValidationError's violation is made of them).
 */
export class StoreArgumentError extends RangeError {
  override readonly name = 'StoreArgumentError';

  constructor(
    readonly field: string,
    readonly rule: string,
    detail: string,
    readonly params: ViolationParams = {},
  ) {
    super(`${field} ${detail}`);
  }
}

/** No movement has this originId. */
export class MovementNotFoundError extends GiroError {
  override readonly name = 'MovementNotFoundError';

  constructor(readonly originId: number) {
    super('TRANSFER_NOT_FOUND', `no movement with originId ${originId}`);
  }

  override answerFields() {
    return { originId: this.originId };
  }
}

/** No cancellation for this originId (the movement is unknown or has not FAILED). */
export class CancellationNotFoundError extends GiroError {
  override readonly name = 'CancellationNotFoundError';

  constructor(readonly originId: number) {
    super('CANCELLATION_NOT_FOUND', `no cancellation for originId ${originId}`);
  }

  override answerFields() {
    return { originId: this.originId };
  }
}

/** No anomaly (a history row with source `anomaly`) has this id. */
export class AnomalyNotFoundError extends GiroError {
  override readonly name = 'AnomalyNotFoundError';

  constructor(readonly anomalyId: number) {
    super('ANOMALY_NOT_FOUND', `no anomaly with id ${anomalyId}`);
  }

  override answerFields() {
    return { anomalyId: this.anomalyId };
  }
}

/** The anomaly was resolved already: its first resolution stays (who, when, the note), and is given here. */
export class AnomalyAlreadyResolvedError extends GiroError {
  override readonly name = 'AnomalyAlreadyResolvedError';

  constructor(
    readonly anomalyId: number,
    readonly resolution: { at: Date; by: { keyId: string; name: string }; note: string },
  ) {
    super(
      'ANOMALY_ALREADY_RESOLVED',
      `anomaly ${anomalyId} was already resolved by "${resolution.by.name}" at ${resolution.at.toISOString()}`,
    );
  }

  override answerFields() {
    const { at, by, note } = this.resolution;
    return {
      anomalyId: this.anomalyId,
      resolution: { at: at.toISOString(), by, note },
    };
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
export class SubAccountNotFoundError extends GiroError {
  override readonly name = 'SubAccountNotFoundError';

  constructor(readonly address: string) {
    super('SUB_ACCOUNT_NOT_FOUND', `no client sub-account ${address} is registered`);
  }

  override answerFields() {
    return { address: this.address };
  }
}

/** The payee book has no entry for this destination account. */
/** No statement import has this id. */
export class StatementNotFoundError extends GiroError {
  override readonly name = 'StatementNotFoundError';

  constructor(readonly id: string) {
    super('STATEMENT_NOT_FOUND', 'no statement import has this id');
  }

  override answerFields() {
    return { id: this.id };
  }
}

export class PayeeNotFoundError extends GiroError {
  override readonly name = 'PayeeNotFoundError';

  constructor(readonly address: string) {
    super('PAYEE_NOT_FOUND', `the payee book has no entry for ${address}`);
  }

  override answerFields() {
    return { address: this.address };
  }
}

/** This address is registered already, to another holder: a sub-account never changes hands. */
export class SubAccountConflictError extends GiroError {
  override readonly name = 'SubAccountConflictError';

  constructor(readonly address: string) {
    super('SUB_ACCOUNT_CONFLICT', `client sub-account ${address} is registered to another holder`);
  }

  override answerFields() {
    return { address: this.address };
  }
}

/** No webhook endpoint has this id. */
export class WebhookEndpointNotFoundError extends GiroError {
  override readonly name = 'WebhookEndpointNotFoundError';

  constructor(readonly endpointId: string) {
    super('WEBHOOK_ENDPOINT_NOT_FOUND', `no webhook endpoint ${endpointId}`);
  }

  override answerFields() {
    return { endpointId: this.endpointId };
  }
}

/** No webhook delivery has this id. */
export class WebhookDeliveryNotFoundError extends GiroError {
  override readonly name = 'WebhookDeliveryNotFoundError';

  constructor(readonly deliveryId: number) {
    super('WEBHOOK_DELIVERY_NOT_FOUND', `no webhook delivery ${deliveryId}`);
  }

  override answerFields() {
    return { deliveryId: this.deliveryId };
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
export class ApprovalNotAwaitedError extends GiroError {
  override readonly name = 'ApprovalNotAwaitedError';

  constructor(
    readonly originId: number,
    readonly status: MovementStatus,
  ) {
    super('APPROVAL_NOT_AWAITED', `transfer ${originId} is not awaiting approval: it is ${status}`);
  }

  override answerFields() {
    return { originId: this.originId, status: this.status };
  }
}

/** The transfer waited past its approval's expiry: it ends REJECTED (the next sweep writes it), never sent. */
export class ApprovalExpiredError extends GiroError {
  override readonly name = 'ApprovalExpiredError';

  constructor(
    readonly originId: number,
    readonly expiredAt: Date,
  ) {
    super('APPROVAL_EXPIRED', `the approval of transfer ${originId} expired at ${expiredAt.toISOString()}`);
  }

  override answerFields() {
    return { originId: this.originId, expiredAt: this.expiredAt.toISOString() };
  }
}

/** Maker–checker: the key that created a transfer cannot approve it. */
export class SelfApprovalError extends GiroError {
  override readonly name = 'SelfApprovalError';

  constructor(
    readonly originId: number,
    readonly keyId: string,
  ) {
    super('SELF_APPROVAL', `transfer ${originId} was created by key ${keyId}: another approver must approve it`);
  }

  override answerFields() {
    return { originId: this.originId };
  }
}

/**
 * Four eyes: the approver's key and the creator's are taken for one person's (domain/four-eyes.ts): one minted
 * the other, or one credential minted both.
 */
export class ApprovalSamePersonError extends GiroError {
  override readonly name = 'ApprovalSamePersonError';

  constructor(
    readonly originId: number,
    readonly creatorKeyId: string,
    readonly approverKeyId: string,
    readonly relation: SamePersonRelation,
  ) {
    super(
      'APPROVAL_SAME_PERSON',
      `transfer ${originId} was created by key ${creatorKeyId}, and key ${approverKeyId} ${RELATION_TEXT[relation]}: a key minted by someone else must approve it`,
    );
  }

  override answerFields() {
    return {
      originId: this.originId,
      creatorKeyId: this.creatorKeyId,
      approverKeyId: this.approverKeyId,
      relation: this.relation,
    };
  }
}

const RELATION_TEXT: Readonly<Record<SamePersonRelation, string>> = {
  minted_approver: 'was minted by it (or by a key it minted)',
  minted_by_approver: 'minted it (or a key that minted it)',
  common_minter: 'comes from the same minter',
};

/** The bootstrap credentials mint keys; they never approve. */
export class BootstrapApprovalError extends GiroError {
  override readonly name = 'BootstrapApprovalError';

  constructor(
    readonly originId: number,
    readonly keyId: string,
  ) {
    super(
      'BOOTSTRAP_CANNOT_APPROVE',
      `${keyId} mints keys but never approves: approve transfer ${originId} with an approver key`,
    );
  }

  override answerFields() {
    return { originId: this.originId };
  }
}

/**
 * The movement was never sent and is not to be (AWAITING_APPROVAL, REJECTED): nothing to send again or to ask
 * the bank about. Nothing was changed.
 */
export class UnsentMovementError extends GiroError {
  override readonly name = 'UnsentMovementError';

  constructor(
    readonly originId: number,
    readonly status: MovementStatus,
  ) {
    super('UNSENT_TRANSFER', `transfer ${originId} is ${status}: it was never sent to the bank`);
  }

  override answerFields() {
    return { originId: this.originId, status: this.status };
  }
}

/** Only a SCHEDULED transfer can be canceled: this one was released (sent) already, or is final. Nothing changed. */
export class TransferNotScheduledError extends GiroError {
  override readonly name = 'TransferNotScheduledError';

  constructor(
    readonly originId: number,
    readonly status: MovementStatus,
  ) {
    super('TRANSFER_NOT_SCHEDULED', `transfer ${originId} is ${status}, not SCHEDULED: it cannot be canceled`);
  }

  override answerFields() {
    return { originId: this.originId, status: this.status };
  }
}
