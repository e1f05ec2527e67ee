import type { EntityManager } from 'typeorm';
import {
  AWAITING_APPROVAL_STATUS,
  PENDING_STATUS,
  REJECTED_STATUS,
  SCHEDULED_STATUS,
  type TransferIntent,
} from '../domain';
import { checkFourEyes } from './approval-four-eyes';
import type { LimitUsage } from './limit-usage';
import { type RecordedActor } from './movement-records';
import type { PayeeBook } from './payee-book';
import { ApprovalExpiredError, ApprovalNotAwaitedError } from './persistence.errors';
import { checkActor, checkInteger, checkOriginId, checkText, MAX_BATCH_SIZE, MAX_NOTE_LENGTH } from './store-arguments';
import type { StoreContext } from './store-context';
import { type ApprovalHold, approvalHoldsOf } from './store-types';
import { type UnsentChangeOutcome, writeUnsentChange } from './unsent-change';

/** What an approver decides about a transfer AWAITING_APPROVAL. */
export type ApprovalDecision =
  | { kind: 'approve'; by: RecordedActor }
  | { kind: 'reject'; by: RecordedActor; reason: string };

/** A decision written: the movement as it left it, and the history row it appended. */
export type ApprovalOutcome = UnsentChangeOutcome;

const EXPIRED = `SELECT "origin_id" FROM "giro_movements" WHERE "status" = '${AWAITING_APPROVAL_STATUS}'
      AND "approval_expires_at_ms" <= ? ORDER BY "approval_expires_at_ms" LIMIT ?`;
const INTENT_DETAIL = `SELECT "detail" FROM "giro_movement_history" WHERE "origin_id" = ? AND "source" = 'intent'`;
const NEXT_EXPIRY = `SELECT MIN("approval_expires_at_ms") AS "at" FROM "giro_movements"
  WHERE "status" = '${AWAITING_APPROVAL_STATUS}'`;

/**
 * MovementStore's approvals (maker–checker): an approver's decision about a transfer AWAITING_APPROVAL, and the
 * expiry of those no one decided about in time. Each decision locks the movement and checks that it still waits,
 * so two approvers deciding at once decide once (the second finds it decided: ApprovalNotAwaitedError).
 */
export class MovementApprovals {
  constructor(
    private readonly context: StoreContext,
    private readonly usage?: LimitUsage,
    private readonly payees?: PayeeBook,
  ) {}

  /**
   * Approves (the transfer becomes PENDING, due at once: the caller or the next sweep sends it; SCHEDULED when its
   * moment is still ahead) or rejects it
   * (REJECTED, final, never sent; its share of its account's limits is free again). Throws
   * ApprovalNotAwaitedError when it does not wait (any more), ApprovalExpiredError past its expiry,
   * SelfApprovalError when the approver is the key that created it, ApprovalSamePersonError when its key is taken for
   * the creator's, BootstrapApprovalError for the bootstrap credentials (approval-four-eyes.ts), MovementNotFoundError.
   */
  async decide(originId: number, decision: ApprovalDecision): Promise<ApprovalOutcome> {
    checkOriginId(originId);
    const by = checkActor(decision?.by, 'by');
    const reason =
      decision.kind === 'reject'
        ? checkText(decision.reason, 'reason', MAX_NOTE_LENGTH, { lineBreaks: true })
        : undefined;
    const now = this.context.nowMs();
    const outcome = await this.context.transactions.write(async (manager) => {
      const row = await this.context.getMovement(manager, originId, { lock: true });
      if (row.status !== AWAITING_APPROVAL_STATUS) throw new ApprovalNotAwaitedError(originId, row.status);
      if (row.approvalExpiresAtMs !== null && row.approvalExpiresAtMs <= now) {
        throw new ApprovalExpiredError(originId, new Date(row.approvalExpiresAtMs));
      }
      if (decision.kind === 'approve') {
        await checkFourEyes(manager, this.context.engine, originId, by);
        // Held as a new payee: the approval that passed the check above approves the account as a payee too.
        if (this.payees && (await this.holdsOf(manager, originId)).includes('new_payee')) {
          const { to } = JSON.parse(row.intent) as TransferIntent;
          await this.payees.approve(manager, to.address, to.owner.personId, by);
        }
        // Approved before its moment, a scheduled transfer waits for it; otherwise it goes at once.
        const to = row.executeAtMs !== null && row.executeAtMs > now ? SCHEDULED_STATUS : PENDING_STATUS;
        return writeUnsentChange(
          manager,
          this.context,
          this.usage,
          row,
          { to, source: 'approval', detail: null, by },
          now,
        );
      }
      return writeUnsentChange(
        manager,
        this.context,
        this.usage,
        row,
        { to: REJECTED_STATUS, source: 'rejection', detail: { reason }, by },
        now,
      );
    });
    this.context.outbox?.committed();
    return outcome;
  }

  /**
   * Ends REJECTED (source `expiry`) at most `limit` transfers whose approval expired by now, oldest expiry
   * first, in one transaction; returns them. Replicas may run it at once: each row is decided once (Postgres
   * skips the rows another transaction holds).
   */
  async expireDue(limit: number): Promise<ApprovalOutcome[]> {
    checkInteger(limit, 'limit', 1, MAX_BATCH_SIZE);
    const now = this.context.nowMs();
    const { engine } = this.context;
    const expired = await this.context.transactions.write(async (manager) => {
      const due: { origin_id: string | number }[] = await manager.query(
        engine.sql(`${EXPIRED}${engine.skipLocked()}`),
        [now, limit],
      );
      const outcomes: ApprovalOutcome[] = [];
      for (const { origin_id } of due) {
        const row = await this.context.getMovement(manager, Number(origin_id));
        const expiredAt = new Date(row.approvalExpiresAtMs ?? now).toISOString();
        const detail = { reason: `not approved by ${expiredAt}` };
        outcomes.push(
          await writeUnsentChange(
            manager,
            this.context,
            this.usage,
            row,
            { to: REJECTED_STATUS, source: 'expiry', detail, by: null },
            now,
          ),
        );
      }
      return outcomes;
    });
    if (expired.length > 0) this.context.outbox?.committed();
    return expired;
  }

  /** The earliest expiry of a transfer awaiting approval (maybe past), or null when none waits. */
  async nextExpiryAt(): Promise<Date | null> {
    return this.context.transactions.read(async (manager) => {
      const [row] = await manager.query(NEXT_EXPIRY);
      return row?.at === null || row?.at === undefined ? null : new Date(Number(row.at));
    });
  }

  /** Why a transfer waits (its intent row's detail). */
  private async holdsOf(manager: EntityManager, originId: number): Promise<ApprovalHold[]> {
    const [row] = await manager.query(this.context.engine.sql(INTENT_DETAIL), [originId]);
    return approvalHoldsOf(typeof row?.detail === 'string' ? JSON.parse(row.detail) : null);
  }
}
