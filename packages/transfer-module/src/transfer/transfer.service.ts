import { Inject, Injectable } from '@nestjs/common';
import {
  businessDayOf,
  DEFAULT_APPROVAL_EXPIRY_MS,
  intentFingerprint,
  limitViolation,
  resolveExecution,
  type SourceAccountIndex,
  type TransferInput,
  type TransferIntent,
} from '../domain';
import { inSpan } from '../domain/tracing';
import { InFlightWork, MovementSender, type MovementView, type SendFirstResult, toMovementView } from '../movement';
import { RESOLVED_TRANSFER_OPTIONS, type ResolvedTransferOptions } from '../options';
import {
  type ApprovalHold,
  LimitExceededError,
  type MovementDetails,
  type MovementRecord,
  MovementStore,
  type RecordedActor,
  type RecordIntentResult,
} from '../persistence';
import { storedMovement } from './stored-movement';
import { subAccountSenderRefusal } from './sub-account.service';
import {
  PayeeBlockedError,
  ScheduleRefusedError,
  TransferConflictError,
  TransferLimitError,
  TransferValidationError,
} from './transfer.errors';
import { needsSubAccountCheck, validateTransferRequest } from './transfer-request.validation';

export interface RequestTransferResult {
  movement: MovementView;
  /** False when this originId was already stored with the same payload (nothing was sent again). */
  created: boolean;
}

/**
 * Creates transfers: validates a request, stores its intent durably with its originId before anything goes to
 * the bank, and sends it (or, above the approvals threshold, keeps it for an approver). An answer that never
 * arrives leaves it non-final for the SweepService, which resolves it by asking the bank about the same
 * originId. What became of a transfer is MovementService's to tell; asking the bank now, BankLookupService's.
 */
@Injectable()
export class TransferService {
  /** What validateRequest returned: frozen, so still what was validated. */
  private readonly validated = new WeakSet<object>();
  /** The accounts `from` may be (`sourceAccounts`, and in PSP mode the registered client sub-accounts). */
  private readonly sources: { accounts?: SourceAccountIndex; psp: boolean };

  constructor(
    @Inject(RESOLVED_TRANSFER_OPTIONS) private readonly options: ResolvedTransferOptions,
    @Inject(MovementStore) private readonly store: MovementStore,
    @Inject(MovementSender) private readonly sender: MovementSender,
    @Inject(InFlightWork) private readonly work: InFlightWork,
  ) {
    this.sources = { accounts: options.sourceAccounts, psp: options.psp };
  }

  /**
   * Creates a transfer from a transfer request (docs/bank-api.md#request-fields; `originId` optional, allocated
   * when absent; `body.amount` a JSON number or a decimal string), or from what validateRequest returned (not
   * validated again). The same originId with the same payload returns the stored movement (`created: false`)
   * without sending anything. Throws TransferValidationError (every bad field) or TransferConflictError (same
   * originId, other payload) or TransferLimitError (it would pass a limit of its source account: nothing stored
   * or sent). `by`, who asks (an API key's public id and name), is recorded on the transfer's first history row.
   * With the `approvals` option, a transfer above its threshold is stored AWAITING_APPROVAL and not sent
   * (ApprovalService decides about it). A request with `executeOn` or `executeAt` whose moment is ahead is stored
   * SCHEDULED and sent by a sweep at that moment (ScheduleRefusedError when the moment cannot be kept: a past
   * day, a non-business day under the policy `refuse`…); one whose moment is past goes at once.
   */
  requestTransfer(input: unknown, options: { by?: RecordedActor } = {}): Promise<RequestTransferResult> {
    // Tracked as a whole, so a graceful stop waits until the answer is recorded and read back.
    const created = inSpan('giro transfer create', {}, async (span) => {
      const result = await refusedByLimits(this.createTransfer(input, options.by));
      if (span.isRecording())
        span.setAttributes({ 'giro.origin_id': result.movement.originId, 'giro.transfer.created': result.created });
      return result;
    });
    return this.work.track(created);
  }

  /**
   * The transfer a transfer request asks for, checked against the domain's rules, this module's
   * `transferRules` and its `sourceAccounts`; a TransferValidationError names every bad field. For a pipe at an
   * HTTP boundary (the admin API's): requestTransfer takes the result as it is, frozen, without validating it
   * again.
   */
  validateRequest(input: unknown): TransferInput {
    const transfer = deepFreeze(validateTransferRequest(input, this.options.transferRules, this.sources));
    this.validated.add(transfer);
    return transfer;
  }

  /**
   * What requestTransfer would answer now for a transfer whose originId is stored, with nothing stored or sent:
   * the stored movement when the payload is the same (a replay), a TransferConflictError when it is another;
   * undefined when the originId is free (or not given). The same fingerprint comparison as requestTransfer's, for
   * a preview (a batch's dry run).
   */
  async previewReplay(transfer: TransferInput): Promise<MovementView | TransferConflictError | undefined> {
    if (transfer.originId === undefined) return undefined;
    const existing = await this.store.findByOriginId(transfer.originId);
    if (existing === null) return undefined;
    const fingerprint = intentFingerprint(withOriginId(transfer, transfer.originId));
    return existing.fingerprint === fingerprint
      ? toMovementView(existing)
      : new TransferConflictError(existing.originId);
  }

  /**
   * What requesting these transfers (from validateRequest), in this order, would refuse now, with nothing stored
   * or sent: the checks that read the store. In PSP mode, a `from` that is not a registered client sub-account
   * (TransferValidationError); then the limits of the source accounts, after today's usage and the transfers
   * before it in the list that pass, a scheduled one on its execution day (TransferLimitError). One answer per
   * transfer, undefined when it would be created. A preview (a batch's dry run): other requests may use the limits
   * before these are sent.
   */
  async previewRequests(
    transfers: readonly TransferInput[],
  ): Promise<(TransferValidationError | TransferLimitError | PayeeBlockedError | undefined)[]> {
    // One read a sender and one a destination, one after another: a 1 000-row file from a few client sub-accounts
    // to a few hundred payees reads that many rows, and never queues a read a row on the pool.
    const senders = new Map<string, TransferValidationError | undefined>();
    const payees = new Map<string, PayeeBlockedError | undefined>();
    const answers: (TransferValidationError | TransferLimitError | PayeeBlockedError | undefined)[] = [];
    for (const { from, to } of transfers) {
      const sender = `${from.address}/${from.owner.personId}`;
      if (!senders.has(sender)) senders.set(sender, await this.senderRefusal(from));
      if (!payees.has(to.address)) payees.set(to.address, await this.payeeRefusal(to.address));
      answers.push(senders.get(sender) ?? payees.get(to.address));
    }
    const open = transfers.flatMap((_transfer, index) => (answers[index] === undefined ? [index] : []));
    const refusals = await this.store.previewLimits(
      open.map((index) => {
        // A scheduled transfer's limits count on its execution day, as the create counts them.
        const executeAt = this.previewExecution(transfers[index]);
        return {
          address: transfers[index].from.address,
          amount: transfers[index].amount,
          ...(executeAt instanceof Date && { day: businessDayOf(executeAt) }),
        };
      }),
    );
    refusals.forEach((refusal, at) => {
      if (refusal !== undefined) answers[open[at]] = new TransferLimitError([limitViolation(refusal)]);
    });
    return answers;
  }

  /**
   * For each transfer (from validateRequest), whether its destination account was never paid (no completed
   * transfer) nor approved as a payee: a preview's flag of a first payment, held for an approval when
   * `newPayeeRequiresApproval` is set. One read per account, nothing stored or sent.
   */
  async previewNewPayees(transfers: readonly TransferInput[]): Promise<boolean[]> {
    const known = new Map<string, boolean>();
    const answers: boolean[] = [];
    for (const { to } of transfers) {
      if (!known.has(to.address)) known.set(to.address, (await this.store.payeeGate(to.address)).known);
      answers.push(!known.get(to.address));
    }
    return answers;
  }

  /**
   * When a transfer (from validateRequest) that asked for a day or a moment would be sent, judged now as
   * requestTransfer judges it, with nothing stored: the moment after the calendar's adjustment; undefined when it
   * asked for none or its moment is past (it would go at once); ScheduleRefusedError when the moment cannot be
   * kept (a past day, a non-business day under the policy `refuse`…). For a preview (a batch's dry run).
   */
  previewExecution(transfer: TransferInput): Date | ScheduleRefusedError | undefined {
    if (transfer.execution === undefined) return undefined;
    const nowMs = this.options.clock.now().getTime();
    const resolved = resolveExecution(transfer.execution, this.options.schedule, nowMs);
    if (!resolved.ok) return new ScheduleRefusedError([resolved.violation]);
    return resolved.executeAtMs > nowMs ? new Date(resolved.executeAtMs) : undefined;
  }

  private async payeeRefusal(address: string): Promise<PayeeBlockedError | undefined> {
    return (await this.store.payeeGate(address)).blocked ? new PayeeBlockedError(address) : undefined;
  }

  /** In PSP mode, why `from` may not send when it is not a registered, enabled client sub-account of its holder. */
  private async senderRefusal(from: TransferInput['from']): Promise<TransferValidationError | undefined> {
    return needsSubAccountCheck(from, this.sources) ? subAccountSenderRefusal(this.store, from) : undefined;
  }

  private async createTransfer(input: unknown, by: RecordedActor | undefined): Promise<RequestTransferResult> {
    const transfer = this.validated.has(input as object)
      ? (input as TransferInput)
      : validateTransferRequest(input, this.options.transferRules, this.sources);
    const refusal = await this.senderRefusal(transfer.from);
    if (refusal !== undefined) throw refusal;
    if (transfer.originId === undefined) return this.createWithNewOriginId(transfer, by);
    const intent = withOriginId(transfer, transfer.originId);
    const fingerprint = intentFingerprint(intent);
    const existing = await this.store.findByOriginId(intent.originId);
    if (existing) return replay(existing, fingerprint);
    const stored = await this.storeAndSend(intent, fingerprint, by);
    if (!stored.created) {
      // Stored by another caller since the read above: its row came back without history, read here once.
      assertSamePayload(stored.movement, fingerprint);
      return replay(await storedMovement(this.store, intent.originId), fingerprint);
    }
    return { movement: await this.viewOf(stored.recorded, intent.originId), created: true };
  }

  private async createWithNewOriginId(
    transfer: TransferInput,
    by: RecordedActor | undefined,
  ): Promise<RequestTransferResult> {
    // OriginIds come from a block taken earlier: a host may have stored one of them as its own originId
    // since. Such an id is already someone else's, so the transfer takes the next one.
    for (;;) {
      const [originId] = await this.store.allocateOriginIds(1);
      const intent = withOriginId(transfer, originId);
      const stored = await this.storeAndSend(intent, intentFingerprint(intent), by);
      if (stored.created) return { movement: await this.viewOf(stored.recorded, originId), created: true };
    }
  }

  /**
   * A new intent: sent at once (SendFirstResult), or, above the approvals threshold or before its moment, only
   * stored AWAITING_APPROVAL or SCHEDULED (nothing goes to the bank, so no slot of the bank budget is taken).
   */
  private async storeAndSend(
    intent: TransferIntent,
    fingerprint: string,
    by: RecordedActor | undefined,
  ): Promise<SendFirstResult> {
    const nowMs = this.options.clock.now().getTime();
    const executeAtMs = this.executionMoment(intent, nowMs);
    const holds = await this.holdsOf(intent);
    // A moment already past is no reason to wait: such a transfer goes as if none was asked.
    const scheduled = executeAtMs !== undefined && executeAtMs > nowMs ? { executeAtMs } : undefined;
    if (holds.length === 0 && scheduled === undefined) {
      if (this.bankOpen(nowMs)) return this.sender.sendFirst(intent, fingerprint, by);
      // Outside the bank's hours: stored PENDING and due, the first sweep after the opening sends it.
      return this.storedOnly(await this.store.recordIntent(intent, fingerprint, { sendNow: false, ...(by && { by }) }));
    }
    const expiresAtMs = this.options.approvals?.expiresAt(nowMs) ?? nowMs + DEFAULT_APPROVAL_EXPIRY_MS;
    const recorded = await this.store.recordIntent(intent, fingerprint, {
      sendNow: false,
      ...(holds.length > 0
        ? { awaitingApproval: { expiresAtMs, holds }, ...(scheduled && { scheduled }) }
        : { scheduled: scheduled as { executeAtMs: number } }),
      ...(by !== undefined && { by }),
    });
    return this.storedOnly(recorded);
  }

  /** A new intent stored and not sent now, as its SendFirstResult. */
  private storedOnly(recorded: RecordIntentResult): SendFirstResult {
    if (!recorded.created) return { created: false, movement: recorded.movement };
    const details = { ...recorded.movement, history: recorded.history, cancellation: null };
    return { created: true, movement: recorded.movement, recorded: details };
  }

  /** Whether the bank takes transfers at `nowMs` (`schedule.bankOperatingHours`; always when unset). */
  private bankOpen(nowMs: number): boolean {
    return this.options.schedule.operatingHours?.isOpen(nowMs) ?? true;
  }

  /** When the intent's asked execution is released (epoch ms); undefined when none was asked. */
  private executionMoment(intent: TransferIntent, nowMs: number): number | undefined {
    if (intent.execution === undefined) return undefined;
    const resolved = resolveExecution(intent.execution, this.options.schedule, nowMs);
    if (!resolved.ok) throw new ScheduleRefusedError([resolved.violation]);
    return resolved.executeAtMs;
  }

  /**
   * Why a new intent must wait for an approval (none: it is sent at once): its amount, and with
   * `newPayeeRequiresApproval` an account never paid nor approved as a payee. Throws PayeeBlockedError for an
   * account blocked in the payee book (nothing stored or sent).
   */
  private async holdsOf(intent: TransferIntent): Promise<ApprovalHold[]> {
    const payee = await this.store.payeeGate(intent.to.address);
    if (payee.blocked) throw new PayeeBlockedError(intent.to.address);
    const holds: ApprovalHold[] = [];
    if (this.options.approvals?.requiresApproval(intent.amount)) holds.push('amount');
    if (this.options.newPayeeRequiresApproval && !payee.known) holds.push('new_payee');
    return holds;
  }

  /**
   * A new originId, never handed out before (it survives restarts and restores), for a host that records it
   * beside its own data before calling requestTransfer: a retry after a crash then repeats the same request,
   * which is idempotent.
   */
  async allocateOriginId(): Promise<number> {
    const [originId] = await this.store.allocateOriginIds(1);
    return originId;
  }

  /** The movement as the create wrote it, without reading it again; read when that write did not happen. */
  private async viewOf(recorded: MovementDetails | null, originId: number): Promise<MovementView> {
    return toMovementView(recorded ?? (await storedMovement(this.store, originId)));
  }
}

/**
 * The validated input with its originId, field by field in the order validation gives them (the stored
 * intent JSON keeps it); not `{ ...transfer, originId }`: see answerPatch (movement/movement-plan.ts).
 */
function withOriginId(transfer: TransferInput, originId: number): TransferIntent {
  return {
    from: transfer.from,
    to: transfer.to,
    currencyId: transfer.currencyId,
    amount: transfer.amount,
    description: transfer.description,
    concept: transfer.concept,
    ...(transfer.execution !== undefined && { execution: transfer.execution }),
    originId,
  };
}

/** The validated transfer, frozen with its parties and their owners (validation built them all). */
function deepFreeze(transfer: TransferInput): TransferInput {
  for (const party of [transfer.from, transfer.to]) Object.freeze(Object.freeze(party).owner);
  return Object.freeze(transfer);
}

/** The same originId again: the stored movement as it is, nothing sent; TransferConflictError for another payload. */
function replay(stored: MovementDetails, fingerprint: string): RequestTransferResult {
  assertSamePayload(stored, fingerprint);
  return { movement: toMovementView(stored), created: false };
}

function assertSamePayload(stored: MovementRecord, fingerprint: string): void {
  if (stored.fingerprint !== fingerprint) throw new TransferConflictError(stored.originId);
}

/** The store's refusal of a new intent by a limit, as the service's error (its transaction stored nothing). */
async function refusedByLimits<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (error instanceof LimitExceededError) throw new TransferLimitError([limitViolation(error.refusal)]);
    throw error;
  }
}
