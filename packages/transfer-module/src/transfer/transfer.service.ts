import { Inject, Injectable } from '@nestjs/common';
import {
  amountFromCents,
  businessDayBounds,
  businessDayOf,
  intentFingerprint,
  isUnsentStatus,
  limitViolation,
  type MovementStatus,
  originIdProblem,
  type SourceAccountIndex,
  type TransferInput,
  type TransferIntent,
  type Violation,
} from '../domain';
import {
  type CancellationView,
  type FollowUpStep,
  InFlightWork,
  LEASE_OWNER,
  MovementSender,
  type MovementView,
  QuerySchedule,
  type SendFirstResult,
  toCancellationView,
  toMovementView,
} from '../movement';
import { RESOLVED_TRANSFER_OPTIONS, type ResolvedTransferOptions } from '../options';
import {
  LimitExceededError,
  type MovementDetails,
  MovementNotFoundError,
  type MovementRecord,
  type MovementSearch,
  type MovementSort,
  MovementStore,
  type RecordedActor,
  StoreArgumentError,
  UnsentMovementError,
} from '../persistence';
import { BankLookups, type BankLookupView, bankLookupView } from './bank-lookups';
import { readMovementLookup } from './movement-lookup-request';
import { assertQueryAllowed } from './query-rule';
import { subAccountSenderRefusal } from './sub-account.service';
import {
  BankLookupFailedError,
  MovementBusyError,
  PollTooSoonError,
  TransferConflictError,
  TransferLimitError,
  TransferValidationError,
} from './transfer.errors';
import type { TransferOverview } from './transfer-overview';
import { needsSubAccountCheck, validateTransferRequest } from './transfer-request.validation';

export interface RequestTransferResult {
  movement: MovementView;
  /** False when this originId was already stored with the same payload (nothing was sent again). */
  created: boolean;
}

/**
 * Sends transfers and tells what became of them. A transfer is stored durably with its originId before
 * anything goes to the bank; an answer that never arrives leaves it non-final for the SweepService, which
 * resolves it by asking the bank about the same originId.
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
    @Inject(QuerySchedule) private readonly schedule: QuerySchedule,
    @Inject(InFlightWork) private readonly work: InFlightWork,
    @Inject(LEASE_OWNER) private readonly owner: string,
    @Inject(BankLookups) private readonly lookups: BankLookups,
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
   * (ApprovalService decides about it).
   */
  requestTransfer(input: unknown, options: { by?: RecordedActor } = {}): Promise<RequestTransferResult> {
    // Tracked as a whole, so a graceful stop waits until the answer is recorded and read back.
    return this.work.track(refusedByLimits(this.createTransfer(input, options.by)));
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
   * before it in the list that pass (TransferLimitError). One answer per transfer, undefined when it would be
   * created. A preview (a batch's dry run): other requests may use the limits before these are sent.
   */
  async previewRequests(
    transfers: readonly TransferInput[],
  ): Promise<(TransferValidationError | TransferLimitError | undefined)[]> {
    // One read a sender, one after another: a 1 000-row file from a few client sub-accounts reads a few rows, and
    // never queues a read a row on the pool.
    const senders = new Map<string, TransferValidationError | undefined>();
    const answers: (TransferValidationError | TransferLimitError | undefined)[] = [];
    for (const { from } of transfers) {
      const sender = `${from.address}/${from.owner.personId}`;
      if (!senders.has(sender)) senders.set(sender, await this.senderRefusal(from));
      answers.push(senders.get(sender));
    }
    const open = transfers.flatMap((_transfer, index) => (answers[index] === undefined ? [index] : []));
    const refusals = await this.store.previewLimits(
      open.map((index) => ({ address: transfers[index].from.address, amount: transfers[index].amount })),
    );
    refusals.forEach((refusal, at) => {
      if (refusal !== undefined) answers[open[at]] = new TransferLimitError([limitViolation(refusal)]);
    });
    return answers;
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
      return replay(await this.details(intent.originId), fingerprint);
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
   * A new intent: sent at once (SendFirstResult), or, above the approvals threshold, only stored
   * AWAITING_APPROVAL (nothing goes to the bank, so no slot of the bank budget is taken).
   */
  private async storeAndSend(
    intent: TransferIntent,
    fingerprint: string,
    by: RecordedActor | undefined,
  ): Promise<SendFirstResult> {
    const { approvals } = this.options;
    if (approvals === undefined || !approvals.requiresApproval(intent.amount)) {
      return this.sender.sendFirst(intent, fingerprint, by);
    }
    const expiresAtMs = approvals.expiresAt(this.options.clock.now().getTime());
    const recorded = await this.store.recordIntent(intent, fingerprint, {
      sendNow: false,
      awaitingApproval: { expiresAtMs },
      ...(by !== undefined && { by }),
    });
    if (!recorded.created) return { created: false, movement: recorded.movement };
    const details = { ...recorded.movement, history: recorded.history, cancellation: null };
    return { created: true, movement: recorded.movement, recorded: details };
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

  /** The stored movement, with its history and cancellation. */
  async getMovement(originId: number): Promise<MovementView> {
    return toMovementView(await this.details(originId));
  }

  /**
   * Asks the bank about the movement now. Throws PollTooSoonError (with `retryAt`) when the polling rule
   * does not allow it yet, MovementBusyError when another worker holds it. A final movement is asked too (an
   * operator double-checking it), no sooner than `polling.minIntervalMs` after its last answer: a contradicting
   * answer is recorded as an anomaly, never applied.
   */
  async refreshMovement(originId: number): Promise<MovementView> {
    return toMovementView((await this.work.track(this.refresh(originId))).details);
  }

  private async refresh(originId: number): Promise<{ details: MovementDetails; step: FollowUpStep }> {
    const { policy } = this.schedule;
    const stored = await this.details(originId);
    if (isUnsentStatus(stored.status)) throw new UnsentMovementError(originId, stored.status);
    assertQueryAllowed(stored, policy, this.options.clock.now());
    const claimed = await this.store.claim(originId, this.owner, this.options.sweep.leaseMs);
    if (claimed === null) throw new MovementBusyError(originId);
    try {
      assertQueryAllowed(claimed, policy, this.options.clock.now());
    } catch (error) {
      await this.store.releaseLease(originId, this.owner);
      throw error;
    }
    const step = await this.sender.followUp(claimed, 'refresh', 0);
    if (step.deferredUntil !== null) throw new PollTooSoonError(originId, step.deferredUntil, this.options.clock.now());
    return { details: await this.details(originId), step };
  }

  /**
   * Asks the bank about a movement named by exactly one of `originId`, `networkId`, `debinId`
   * (docs/bank-api.md#get-a-movement), even one giro does not store, and returns what it answered. About a
   * movement giro stores, known by that name (its originId, a network id from its answers, a DEBIN id learned
   * by an earlier lookup), it is a refresh: the polling rule holds (PollTooSoonError) and the answer is applied
   * like any other, since asking without recording it would let the next query come too soon, or after a final
   * answer. A name giro has not learned can only be found to be a stored movement's from the answer
   * (`details.originId`, with the same money and account): that answer is then recorded as the movement's
   * query, and its DEBIN id kept (BankLookups.askAbout). About any other, nothing is stored. The call goes
   * through the bank-call budget. Throws TransferValidationError naming the fields for none or several, a
   * BankError when the bank gave no usable answer (BankLookupFailedError for a stored movement).
   */
  lookUpAtBank(lookup: unknown): Promise<BankLookupView> {
    return this.work.track(this.lookUp(lookup));
  }

  private async lookUp(input: unknown): Promise<BankLookupView> {
    const lookup = readMovementLookup(input);
    const originId = 'originId' in lookup ? lookup.originId : await this.storedOriginIdOf(lookup);
    const stored = originId === undefined ? null : await this.store.findByOriginId(originId);
    if (stored === null) return this.lookups.askAbout(lookup);
    const { details, step } = await this.refresh(stored.originId);
    // What the bank said this time, applied or not: an answer recorded as an anomaly is not the stored last
    // answer, which still holds the one before it.
    if (step.failedCalls > 0 || step.answer === null)
      throw new BankLookupFailedError(stored.originId, details.lastError);
    return bankLookupView(step.answer, true, step.anomalyReason);
  }

  /**
   * The bank's answer about a stored movement in the network's own format (`getRawData: true`), as it came: a
   * query like any other for the polling rule (PollTooSoonError, MovementBusyError). Its status is not read, so
   * the next query waits as after a DELAYED answer. A BankError when the bank gave no answer.
   */
  rawBankAnswer(originId: number): Promise<unknown> {
    checkOriginId(originId);
    return this.work.track(this.rawAnswerOfSent(originId));
  }

  private async rawAnswerOfSent(originId: number): Promise<unknown> {
    const stored = await this.details(originId);
    if (isUnsentStatus(stored.status)) throw new UnsentMovementError(originId, stored.status);
    return this.lookups.rawAnswer(originId);
  }

  /** The movement the network identified by `networkId` (`details.networkId`), or null (a partial index serves it). */
  async findByNetworkId(networkId: string): Promise<MovementView | null> {
    const page = await asValidation(() => this.store.listDetails({ networkId, limit: 1 }));
    return page.items.length === 0 ? null : toMovementView(page.items[0]);
  }

  /**
   * The movements a search finds (every one without filters), a page at a time: by originId unless `sort` says
   * by creation time (`-createdAt`: newest first); `after` = the previous page's `nextCursor` of the same sort.
   */
  async listMovements(
    filter: MovementSearch,
    page: { limit: number; after?: string; sort?: MovementSort },
  ): Promise<{ items: MovementView[]; nextCursor: string | null }> {
    const result = await asValidation(() => this.store.listDetails({ ...filter, ...page }));
    return { items: result.items.map(toMovementView), nextCursor: result.nextCursor };
  }

  /** Cancellations of FAILED movements, oldest first, all of them; `acknowledged: false` = still to register. */
  async listCancellations(filter: { acknowledged?: boolean } = {}): Promise<CancellationView[]> {
    const records = await asValidation(() => this.store.listCancellations(filter));
    return records.map(toCancellationView);
  }

  /** `listCancellations` a page at a time (`after` = the previous page's `nextCursor`). */
  async listCancellationPage(
    filter: { acknowledged?: boolean },
    page: { limit: number; after?: string },
  ): Promise<{ items: CancellationView[]; nextCursor: string | null }> {
    const result = await asValidation(() =>
      this.store.listCancellationPage({
        ...(filter.acknowledged !== undefined && { acknowledged: filter.acknowledged }),
        limit: page.limit,
        ...(page.after !== undefined && { after: page.after }),
      }),
    );
    return { items: result.items.map(toCancellationView), nextCursor: result.nextCursor };
  }

  /**
   * The host registered the cancellation on its side: optionally its own registration id (`reference`, at most
   * 100 characters) and who acknowledged (`by`, the admin API's actor). Idempotent: the first acknowledgement
   * stays, with its time, reference and actor. Throws CancellationNotFoundError, TransferValidationError.
   */
  async acknowledgeCancellation(
    originId: number,
    acknowledgement: { reference?: string; by?: RecordedActor } = {},
  ): Promise<CancellationView> {
    checkOriginId(originId);
    return toCancellationView(await asValidation(() => this.store.acknowledgeCancellation(originId, acknowledgement)));
  }

  /** How many movements are in each status (every status present, 0 included): for metrics and tests. */
  countByStatus(): Promise<Record<MovementStatus, number>> {
    return this.store.countByStatus();
  }

  /** Cancellations the host has not registered yet. */
  countUnacknowledgedCancellations(): Promise<number> {
    return this.store.countUnacknowledgedCancellations();
  }

  /** Anomalies no operator has resolved yet (AnomalyService lists and resolves them): for metrics. */
  countUnresolvedAnomalies(): Promise<number> {
    return this.store.countUnresolvedAnomalies();
  }

  /** When the oldest movement that is not final was created, or null when none is open: for metrics. */
  oldestNonFinalCreatedAt(): Promise<Date | null> {
    return this.store.oldestNonFinalCreatedAt();
  }

  /**
   * What a back office looks at first: movements per status, what completed among today's (a Buenos Aires day),
   * the oldest one still open, and what waits for someone (anomalies, cancellations to register, approvals).
   */
  async overview(): Promise<TransferOverview> {
    const today = businessDayBounds(businessDayOf(this.options.clock.now()));
    const [countsByStatus, completed, oldest, anomaliesOpen, cancellationsToRegister] = await Promise.all([
      this.store.countByStatus(),
      this.store.completedTotals(today.start, today.end),
      this.store.oldestNonFinal(),
      this.store.countUnresolvedAnomalies(),
      this.store.countUnacknowledgedCancellations(),
    ]);
    return {
      countsByStatus,
      sentToday: completed.map((total) => ({
        currencyId: total.currencyId,
        amount: amountFromCents(total.cents),
        count: total.count,
      })),
      oldestNonFinal: oldest && { ...oldest, createdAt: oldest.createdAt.toISOString() },
      anomaliesOpen,
      cancellationsToRegister,
      awaitingApproval: countsByStatus.AWAITING_APPROVAL,
    };
  }

  /** The movement as the create wrote it, without reading it again; read when that write did not happen. */
  private async viewOf(recorded: MovementDetails | null, originId: number): Promise<MovementView> {
    return recorded ? toMovementView(recorded) : this.getMovement(originId);
  }

  private async details(originId: number): Promise<MovementDetails> {
    checkOriginId(originId);
    const details = await this.store.findByOriginId(originId);
    if (!details) throw new MovementNotFoundError(originId);
    return details;
  }

  /**
   * The originId of the stored movement a network id or a DEBIN id names, when giro knows that name: the network
   * id from the bank's answers, the DEBIN id from an earlier lookup by it whose answer named the movement.
   */
  private async storedOriginIdOf(lookup: { networkId: string } | { debinId: string }): Promise<number | undefined> {
    const filter = 'networkId' in lookup ? { networkId: lookup.networkId } : { debinId: lookup.debinId };
    const page = await this.store.list({ ...filter, limit: 1 });
    return page.items[0]?.originId;
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

function checkOriginId(originId: unknown): void {
  const problem = originIdProblem(originId);
  if (problem !== undefined) throw new TransferValidationError([{ field: 'originId', rule: 'origin_id', ...problem }]);
}

/** The store's argument errors (a bad limit, status, cursor) are the caller's input errors. */
export async function asValidation<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (!(error instanceof StoreArgumentError)) throw error;
    const message = error.message.startsWith(`${error.field} `)
      ? error.message.slice(error.field.length + 1)
      : error.message;
    const violation: Violation = { field: error.field, rule: error.rule, params: error.params, message };
    throw new TransferValidationError([violation]);
  }
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
