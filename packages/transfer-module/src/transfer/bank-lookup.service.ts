import { Inject, Injectable } from '@nestjs/common';
import { isUnsentStatus } from '../domain';
import {
  type FollowUpStep,
  InFlightWork,
  LEASE_OWNER,
  MovementSender,
  type MovementView,
  QuerySchedule,
  toMovementView,
} from '../movement';
import { RESOLVED_TRANSFER_OPTIONS, type ResolvedTransferOptions } from '../options';
import { type MovementDetails, MovementStore, UnsentMovementError } from '../persistence';
import { BankLookups, type BankLookupView, bankLookupView } from './bank-lookups';
import { readMovementLookup } from './movement-lookup-request';
import { assertQueryAllowed } from './query-rule';
import { checkOriginId, storedMovement } from './stored-movement';
import { BankLookupFailedError, MovementBusyError, PollTooSoonError } from './transfer.errors';

/**
 * Asks the bank now, on demand: about a stored movement (a refresh, under the polling rule, its answer applied
 * like the sweep's), about any movement by one of its names, or for its answer in the network's own format.
 * Every call goes through the bank-call budget, and a graceful stop waits for it.
 */
@Injectable()
export class BankLookupService {
  constructor(
    @Inject(RESOLVED_TRANSFER_OPTIONS) private readonly options: ResolvedTransferOptions,
    @Inject(MovementStore) private readonly store: MovementStore,
    @Inject(MovementSender) private readonly sender: MovementSender,
    @Inject(QuerySchedule) private readonly schedule: QuerySchedule,
    @Inject(InFlightWork) private readonly work: InFlightWork,
    @Inject(LEASE_OWNER) private readonly owner: string,
    @Inject(BankLookups) private readonly lookups: BankLookups,
  ) {}

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
    const stored = await storedMovement(this.store, originId);
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
    return { details: await storedMovement(this.store, originId), step };
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
    const stored = await storedMovement(this.store, originId);
    if (isUnsentStatus(stored.status)) throw new UnsentMovementError(originId, stored.status);
    return this.lookups.rawAnswer(originId);
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
