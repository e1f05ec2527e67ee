import { Inject, Injectable } from '@nestjs/common';
import {
  BankAuthError,
  BankCallBudget,
  BankClient,
  type BankMovement,
  BankNotSentError,
  BankRateLimitedError,
  type MovementLookup,
} from '../bank';
import { type BankStatus, isFinalStatus, type MovementStatus } from '../domain';
import { type BankDetailsView, bankDetailsOf, LEASE_OWNER, MovementSender, QuerySchedule } from '../movement';
import { RESOLVED_TRANSFER_OPTIONS, type ResolvedTransferOptions } from '../options';
import {
  type ClaimedMovement,
  MovementNotFoundError,
  type MovementPatch,
  type MovementRecord,
  MovementStore,
} from '../persistence';
import { answerNamesMovement } from './answer-names-movement';
import { assertQueryAllowed } from './query-rule';
import { MovementBusyError, PollTooSoonError } from './transfer.errors';

/** What the bank answered to a lookup (POST /admin/bank/lookup), as it said it: nothing of it is interpreted. */
export interface BankLookupView {
  /**
   * Whether giro stores this movement. A stored one was refreshed (the polling rule held, the answer applied
   * like any other), or, named by a network or DEBIN id giro had not learned yet, its answer was recorded as
   * its query once it came; any other was only asked about, and nothing was stored.
   */
  stored: boolean;
  status: BankStatus;
  /** `details.originId`, `details.amount` (2 decimals), `details.amountCurrency`; null when the bank left them out. */
  originId: number | null;
  amount: string | null;
  currencyId: string | null;
  bank: BankDetailsView;
  /** The bank's answer as it came, unknown fields included. */
  answer: Record<string, unknown>;
  /**
   * About a stored movement: why this answer was recorded as an anomaly and not applied (it contradicts a
   * final status, or names other money or another account); null when it was applied, or not about a stored one.
   */
  anomaly: string | null;
}

/** What the lookups need of the bank: get-movement, by any lookup, parsed or in the network's format. */
export type BankLookupPort = Pick<BankClient, 'getMovement'>;

type Settled<T> = { ok: true; value: T } | { ok: false; error: unknown };

/**
 * The bank's get-movement for an operator, beside the sweep's own lookups: asking about a movement giro does not
 * store, and asking for a stored one's answer in the network's own format. Every call goes through the shared
 * budget; a stored movement's call follows the polling rule, under a lease, and is recorded as a query.
 */
@Injectable()
export class BankLookups {
  constructor(
    @Inject(RESOLVED_TRANSFER_OPTIONS) private readonly options: ResolvedTransferOptions,
    @Inject(MovementStore) private readonly store: MovementStore,
    @Inject(BankClient) private readonly bank: BankLookupPort,
    @Inject(BankCallBudget) private readonly budget: BankCallBudget,
    @Inject(QuerySchedule) private readonly schedule: QuerySchedule,
    @Inject(LEASE_OWNER) private readonly owner: string,
    @Inject(MovementSender) private readonly sender: MovementSender,
  ) {}

  /**
   * Asks the bank about a movement giro does not know by this name, and returns its answer. Nothing is stored,
   * unless the answer to a lookup by network or DEBIN id names a movement giro stores (answerNamesMovement):
   * giro had not learned that name (a network id no answer of the movement carried yet, a DEBIN id never
   * looked up), so the polling rule could not be checked before asking. The bank counted the query all the
   * same, so it is recorded as that movement's query (recordNamedAnswer) and the next one waits for it.
   */
  async askAbout(lookup: MovementLookup): Promise<BankLookupView> {
    const movement = await this.budget.throttle('query', (onWritten) => this.bank.getMovement(lookup, { onWritten }));
    if ('originId' in lookup || movement.originId === undefined) return bankLookupView(movement, false);
    const named = await this.store.findByOriginId(movement.originId);
    if (named === null || !answerNamesMovement(movement, named)) return bankLookupView(movement, false);
    return this.recordNamedAnswer(named, movement, 'debinId' in lookup ? lookup.debinId : undefined);
  }

  /**
   * A stored movement's answer, to a lookup that named it otherwise than by its originId. Under the movement's
   * lease it is recorded like a refresh's answer (applied, or an anomaly), with the DEBIN id it was asked by.
   * When another worker holds the movement, only that worker may write what the bank said; the query is still
   * counted, and no query goes out before the answer's polling interval has passed (`queriesHeldUntil`).
   */
  private async recordNamedAnswer(
    named: MovementRecord,
    answer: BankMovement,
    debinId: string | undefined,
  ): Promise<BankLookupView> {
    const { originId } = named;
    const learned: MovementPatch = debinId === undefined ? {} : { debinId };
    const claimed = await this.store.claim(originId, this.owner, this.options.sweep.leaseMs);
    if (claimed !== null) {
      const step = await this.sender.recordAnswer(claimed, answer, learned);
      if (!step.leftDue) return bankLookupView(answer, true, step.anomalyReason);
    }
    const now = this.options.clock.now();
    const heldUntil = latest(this.earliestQueryAfter(answer.status, now), this.earliestQueryAfter(named.status, now));
    await this.store.recordUnleasedQuery(originId, { heldUntil, ...(debinId !== undefined && { debinId }) });
    return bankLookupView(answer, true, null);
  }

  /** The polling rule's earliest next query after an answer of `status` at `at` (a final one: a recheck's). */
  private earliestQueryAfter(status: MovementStatus, at: Date): Date {
    const { policy } = this.schedule;
    return isFinalStatus(status) ? policy.earliestRecheckAt(at) : policy.earliestQueryAt(status, at);
  }

  /**
   * The bank's answer about a stored movement in the network's own format (`getRawData: true`), as it came.
   * A query like any other: PollTooSoonError sooner than the polling rule allows, MovementBusyError while
   * another worker holds the movement, and recorded as the last answer's time once answered.
   */
  async rawAnswer(originId: number): Promise<unknown> {
    const stored = await this.store.findByOriginId(originId);
    if (stored === null) throw new MovementNotFoundError(originId);
    const { policy } = this.schedule;
    assertQueryAllowed(stored, policy, this.options.clock.now());
    const claimed = await this.store.claim(originId, this.owner, this.options.sweep.leaseMs);
    if (claimed === null) throw new MovementBusyError(originId);
    let outcome: Settled<unknown>;
    try {
      const held = await this.sender.holdAfterTakeover(claimed);
      if (held !== null) throw new PollTooSoonError(originId, held.until, this.options.clock.now());
      assertQueryAllowed(claimed, policy, this.options.clock.now());
      outcome = await this.budget.throttle('query', (onWritten) =>
        settle(() => this.bank.getMovement({ originId }, { getRawData: true, onWritten })),
      );
    } catch (error) {
      await this.store.releaseLease(originId, this.owner);
      throw error;
    }
    await this.recordRawQuery(claimed, outcome);
    if (!outcome.ok) throw outcome.error;
    return outcome.value;
  }

  /**
   * The raw answer's time, for the polling rule. Its status is in the network's words, which giro does not
   * read: until the next query the movement waits as after a DELAYED answer, the longer rule, so that query is
   * never early whatever the bank's status now is. A call that certainly reached no one changes nothing.
   */
  private async recordRawQuery(claimed: ClaimedMovement, outcome: Settled<unknown>): Promise<void> {
    const { originId } = claimed;
    if (!outcome.ok && isCertainlyNotProcessed(outcome.error)) {
      await this.store.releaseLease(originId, this.owner);
      return;
    }
    const now = this.options.clock.now();
    const patch: MovementPatch = {};
    if (outcome.ok) patch.lastAnswerAt = now;
    if (!isFinalStatus(claimed.status)) {
      const held = this.schedule.policy.earliestQueryAt('DELAYED', now);
      patch.queriesHeldUntil = held;
      if (claimed.nextQueryAt === null || claimed.nextQueryAt.getTime() < held.getTime()) patch.nextQueryAt = held;
    }
    await this.store.applyUpdate(originId, this.owner, { patch, countQuery: true, releaseLease: true });
  }
}

/**
 * The view of a parsed answer; `stored`: whether giro stores the movement; `anomaly`: why the answer was not
 * applied to it.
 */
export function bankLookupView(movement: BankMovement, stored: boolean, anomaly: string | null = null): BankLookupView {
  return {
    stored,
    status: movement.status,
    originId: movement.originId ?? null,
    amount: movement.amount ?? null,
    currencyId: movement.amountCurrency ?? null,
    bank: bankDetailsOf(movement),
    answer: movement.raw,
    anomaly,
  };
}

function latest(a: Date, b: Date): Date {
  return a.getTime() >= b.getTime() ? a : b;
}

function isCertainlyNotProcessed(error: unknown): boolean {
  return error instanceof BankNotSentError || error instanceof BankRateLimitedError || error instanceof BankAuthError;
}

async function settle<T>(call: () => Promise<T>): Promise<Settled<T>> {
  try {
    return { ok: true, value: await call() };
  } catch (error) {
    return { ok: false, error };
  }
}
