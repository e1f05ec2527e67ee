import { Inject, Injectable, type LoggerService } from '@nestjs/common';
import { type ErrorCode, GiroError, PENDING_STATUS, type Violation } from '../domain';
import {
  describeError,
  InFlightWork,
  LEASE_OWNER,
  MOVEMENT_LOGGER,
  MovementEvents,
  MovementSender,
  type MovementView,
  movementLogLine,
  toMovementView,
} from '../movement';
import { RESOLVED_TRANSFER_OPTIONS, type ResolvedTransferOptions } from '../options';
import {
  type ApprovalDecision,
  type ApprovalOutcome,
  MAX_NOTE_LENGTH,
  MovementNotFoundError,
  MovementStore,
  type RecordedActor,
} from '../persistence';
import { readOriginIdList } from './origin-id-list';
import { asValidation } from './store-argument-errors';
import { checkOriginId } from './stored-movement';
import { TransferValidationError } from './transfer.errors';

/** One transfer of a bulk decision: decided, or refused with the error a single decision would have thrown. */
export type ApprovalBatchItem =
  | { originId: number; outcome: 'approved' | 'rejected'; movement: MovementView }
  | { originId: number; outcome: 'refused'; error: { name: string; code: ErrorCode; message: string } };

/** The most transfers one bulk decision takes. */
export const MAX_APPROVAL_BATCH = 100;

/**
 * Maker–checker (options `approvals`): decides about transfers stored AWAITING_APPROVAL. An approved one becomes
 * PENDING and is sent at once by this instance (or, when another worker holds it, by the next sweep); a rejected
 * one ends REJECTED, never sent, its share of its account's limits freed. The key that created a transfer
 * cannot approve it. Roles are the caller's business (the admin API lets only `approver` and `admin` keys in).
 */
@Injectable()
export class ApprovalService {
  constructor(
    @Inject(RESOLVED_TRANSFER_OPTIONS) private readonly options: ResolvedTransferOptions,
    @Inject(MovementStore) private readonly store: MovementStore,
    @Inject(MovementSender) private readonly sender: MovementSender,
    @Inject(MovementEvents) private readonly events: MovementEvents,
    @Inject(InFlightWork) private readonly work: InFlightWork,
    @Inject(LEASE_OWNER) private readonly owner: string,
    @Inject(MOVEMENT_LOGGER) private readonly logger: LoggerService,
  ) {}

  /**
   * Approves the transfer and sends it. Throws ApprovalNotAwaitedError (decided already, or it never waited),
   * ApprovalExpiredError, SelfApprovalError (`by` created it), ApprovalSamePersonError (`by`'s key and the creator's
   * are one person's), BootstrapApprovalError, MovementNotFoundError, TransferValidationError.
   */
  approve(originId: number, by: RecordedActor): Promise<MovementView> {
    return this.work.track(this.decide(originId, { kind: 'approve', by }));
  }

  /** Rejects the transfer, with a reason (1 to 500 characters): it ends REJECTED, never sent. Throws as `approve`. */
  reject(originId: number, input: unknown, by: RecordedActor): Promise<MovementView> {
    return this.work.track(this.decide(originId, { kind: 'reject', by, reason: readReason(input) }));
  }

  /**
   * `approve` for each originId of `{ originIds: [...] }` (1 to MAX_APPROVAL_BATCH, no repeats), one at a time:
   * one refused (decided already, self-approval…) does not stop the others; each says what became of it.
   */
  approveMany(input: unknown, by: RecordedActor): Promise<ApprovalBatchItem[]> {
    const originIds = readOriginIdList(input, MAX_APPROVAL_BATCH);
    return this.work.track(this.decideEach(originIds, { kind: 'approve', by }));
  }

  /** `reject` for each originId of `{ originIds: [...], reason }`, as approveMany. */
  rejectMany(input: unknown, by: RecordedActor): Promise<ApprovalBatchItem[]> {
    const originIds = readOriginIdList(input, MAX_APPROVAL_BATCH);
    const reason = readReason(input);
    return this.work.track(this.decideEach(originIds, { kind: 'reject', by, reason }));
  }

  private async decide(originId: number, decision: ApprovalDecision): Promise<MovementView> {
    checkOriginId(originId);
    const outcome = await asValidation(() => this.store.decideApproval(originId, decision));
    await this.announce(outcome);
    // Approved before its moment, a scheduled transfer waits for the sweep that releases it.
    if (outcome.movement.status === PENDING_STATUS) await this.sendApproved(originId);
    const details = await this.store.findByOriginId(originId);
    if (details === null) throw new MovementNotFoundError(originId);
    return toMovementView(details);
  }

  private async decideEach(originIds: number[], decision: ApprovalDecision): Promise<ApprovalBatchItem[]> {
    const items: ApprovalBatchItem[] = [];
    const outcome = decision.kind === 'approve' ? 'approved' : 'rejected';
    for (const originId of originIds) {
      try {
        items.push({ originId, outcome, movement: await this.decide(originId, decision) });
      } catch (error) {
        if (!(error instanceof Error)) throw error;
        const code = error instanceof GiroError ? error.code : 'INTERNAL';
        items.push({ originId, outcome: 'refused', error: { name: error.name, code, message: error.message } });
      }
    }
    return items;
  }

  /**
   * Sends an approved transfer now, as a sweep would (a PENDING movement never sent is sent), while the bank is
   * open (`schedule.bankOperatingHours`). When another
   * worker holds it, or the send fails before the bank answered, the movement is PENDING and due: the next sweep
   * sends it. The approval stands either way.
   */
  private async sendApproved(originId: number): Promise<void> {
    // Outside the bank's hours it waits, PENDING and due, for the first sweep after the opening.
    if (!(this.options.schedule.operatingHours?.isOpen(this.options.clock.now().getTime()) ?? true)) return;
    try {
      const claimed = await this.store.claim(originId, this.owner, this.options.sweep.leaseMs);
      if (claimed !== null) await this.sender.followUp(claimed, 'query', 0);
    } catch (error) {
      this.logger.warn?.(
        movementLogLine(originId, `approved; not sent yet, the sweep sends it: ${describeError(error)}`),
      );
      await this.store.releaseLease(originId, this.owner).catch(() => undefined);
    }
  }

  private async announce({ movement, history }: ApprovalOutcome): Promise<void> {
    if (history.from === null) return;
    await this.events.publish(movement.originId, {
      kind: 'changed',
      from: history.from,
      to: history.to,
      source: history.source,
    });
  }
}

function readReason(input: unknown): string {
  const reason = (input as { reason?: unknown } | null)?.reason;
  if (typeof reason !== 'string' || reason.trim() === '' || reason.length > MAX_NOTE_LENGTH) {
    invalid([
      {
        field: 'reason',
        rule: 'reason',
        params: { min: 1, max: MAX_NOTE_LENGTH },
        message: `must be a text of 1 to ${MAX_NOTE_LENGTH} characters saying why`,
      },
    ]);
  }
  return reason;
}

function invalid(violations: Violation[]): never {
  throw new TransferValidationError(violations);
}
