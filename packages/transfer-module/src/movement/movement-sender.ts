import { Inject, Injectable, type LoggerService } from '@nestjs/common';
import {
  BankCallBudget,
  type BankCallPriority,
  type BankMovement,
  BankMovementNotFoundError,
  type CreateTransferResult,
} from '../bank';
import { intentToWire, isFinalStatus, PENDING_STATUS, type TransferIntent } from '../domain';
import { RESOLVED_TRANSFER_OPTIONS, type ResolvedTransferOptions } from '../options';
import {
  type ApplyUpdateResult,
  type ClaimedMovement,
  type HistorySource,
  type MovementDetails,
  type MovementPatch,
  type MovementRecord,
  MovementStore,
  type RecordedActor,
} from '../persistence';
import { BANK_PORT, type BankPort } from './bank-port';
import { FailureCounts } from './failure-counts';
import { emptyFollowUpStep, type FollowUpStep } from './follow-up-step';
import { LEASE_OWNER } from './lease-owner';
import { MovementEvents } from './movement-events';
import { MOVEMENT_LOGGER, movementLogLine } from './movement-logger';
import {
  type MovementPlan,
  type PlanContext,
  planAnswer,
  planCreationFailure,
  planLookupFailure,
} from './movement-plan';
import { QuerySchedule } from './query-schedule';

/** What the sender reads of the options. */
export type MovementSenderOptions = Pick<ResolvedTransferOptions, 'clock' | 'callGuardMs'> & {
  sweep: Pick<ResolvedTransferOptions['sweep'], 'leaseMs'>;
};

export type SendFirstResult =
  /** The originId was already stored: `movement` is that row, untouched; nothing was sent. */
  | { created: false; movement: MovementRecord }
  /**
   * Sent. `movement` as recorded before the send; `recorded` the movement as the answer left it, with its
   * history and cancellation (null when the lease expired before the answer was written).
   */
  | { created: true; movement: MovementRecord; recorded: MovementDetails | null };

type Settled<T> = { ok: true; value: T } | { ok: false; error: unknown };

/** The lease had too little time left to start a call (the movement is given back, untouched). */
const LEASE_TOO_SHORT = Symbol('lease too short');
/** markSendAttempt refused: another worker owns the movement now. */
const LEASE_LOST = Symbol('lease lost');

/**
 * Sends a movement to the bank and follows it up: the first send of a new intent, and for a claimed one a
 * lookup, a re-send of the same originId when the bank does not know it, and the answer applied. Every bank
 * call goes through the shared budget; every write is fenced on the lease; events go out after the commit.
 */
@Injectable()
export class MovementSender {
  constructor(
    @Inject(RESOLVED_TRANSFER_OPTIONS) private readonly options: MovementSenderOptions,
    @Inject(MovementStore) private readonly store: MovementStore,
    @Inject(BANK_PORT) private readonly bank: BankPort,
    @Inject(BankCallBudget) private readonly budget: BankCallBudget,
    @Inject(QuerySchedule) private readonly schedule: QuerySchedule,
    @Inject(FailureCounts) private readonly failures: FailureCounts,
    @Inject(MovementEvents) private readonly events: MovementEvents,
    @Inject(LEASE_OWNER) private readonly owner: string,
    @Inject(MOVEMENT_LOGGER) private readonly logger: LoggerService,
  ) {}

  /**
   * Records the intent durably (leased to this worker, counted as one send that may reach the bank) and then
   * sends it, both inside one slot of the budget, so the lease starts when the request leaves. `created` is
   * false when the originId was already stored (nothing sent). `by`: who asked for it (its first history row).
   */
  async sendFirst(intent: TransferIntent, fingerprint: string, by?: RecordedActor): Promise<SendFirstResult> {
    const lease = {
      sendNow: true,
      owner: this.owner,
      leaseMs: this.options.sweep.leaseMs,
      ...(by !== undefined && { by }),
    } as const;
    const outcome = await this.budget.throttle('create', async (onWritten) => {
      const recorded = await this.store.recordIntent(intent, fingerprint, lease);
      if (!recorded.created) return { recorded, call: undefined };
      return {
        recorded,
        call: await settle(() => this.bank.createTransferRequest(intentToWire(intent), { onWritten })),
      };
    });
    const { recorded, call } = outcome;
    if (!recorded.created || call === undefined) return { created: false, movement: recorded.movement };
    const step = emptyFollowUpStep();
    step.sent += 1;
    const written = await this.write(
      recorded.movement,
      this.planCreation(recorded.movement, call, 'create', 0, false),
      step,
      false,
    );
    return {
      created: true,
      movement: recorded.movement,
      // Object.assign, not a spread then properties: see answerPatch (movement-plan.ts).
      recorded: written.applied
        ? Object.assign({}, written.movement, {
            history: [...recorded.history, ...written.history],
            cancellation: written.cancellation,
          })
        : null,
    };
  }

  /**
   * Follows up a movement this worker has claimed. A PENDING movement none of whose sends may have reached
   * the bank is sent again; any other is looked up first, and a PENDING one the bank does not know (yet) is
   * then sent again with the same originId.
   */
  async followUp(
    record: ClaimedMovement,
    source: 'query' | 'refresh',
    pressure: number,
    /** Filled as the work goes, so what was done still counts if a later write throws. */
    step: FollowUpStep = emptyFollowUpStep(),
  ): Promise<FollowUpStep> {
    const held = await this.holdAfterTakeover(record);
    if (held !== null) {
      if (held.applied) step.deferredUntil = held.until;
      else step.leftDue = true;
      return step;
    }
    if (record.status === PENDING_STATUS && (record.attempts === 0 || record.released)) {
      await this.resend(record, pressure, step, false, record.released);
      return step;
    }
    const call = await this.callWithinLease(record, 'query', (onWritten) =>
      this.bank.getMovement({ originId: record.originId }, { onWritten }),
    );
    if (call === LEASE_TOO_SHORT) return this.giveBack(record, step);
    step.queried += 1;
    if (call.ok) {
      step.answer = call.value;
      this.failures.clear(record.originId);
      await this.write(record, planAnswer(record, call.value, this.context(source, pressure)), step, true);
    } else if (record.status === PENDING_STATUS && call.error instanceof BankMovementNotFoundError) {
      // Not registered (yet), or never received: the same originId again. Never FAILED for this.
      await this.resend(record, pressure, step, true);
    } else {
      const failures = this.failures.record(record.originId);
      await this.write(
        record,
        planLookupFailure(record, call.error, this.context(source, pressure), failures),
        step,
        true,
      );
    }
    return step;
  }

  /** `counted`: the claim counted this send already (a released scheduled transfer's first). */
  private async resend(
    record: MovementRecord,
    pressure: number,
    step: FollowUpStep,
    afterLookup: boolean,
    counted = false,
  ) {
    const outcome = await this.budget.throttle('create', async (onWritten) => {
      if (!this.leaseAllowsCall(record)) return LEASE_TOO_SHORT;
      // Counted durably before the bytes go out: if this worker dies now, the next one looks it up first.
      if (!counted && !(await this.store.markSendAttempt(record.originId, this.owner))) return LEASE_LOST;
      return settle(() => this.bank.createTransferRequest(intentToWire(record.intent), { onWritten }));
    });
    if (outcome === LEASE_TOO_SHORT) return this.giveBack(record, step);
    if (outcome === LEASE_LOST) {
      step.leftDue = true; // another worker owns it now: nothing sent, nothing written
      return step;
    }
    step.sent += 1;
    if (outcome.ok) step.answer = outcome.value.movement;
    const plan = this.planCreation(record, outcome, 'resend', pressure, record.attempts > (counted ? 1 : 0));
    await this.write(record, plan, step, afterLookup);
    return step;
  }

  private planCreation(
    record: MovementRecord,
    call: Settled<CreateTransferResult>,
    source: HistorySource,
    pressure: number,
    earlierSendMayHaveReached: boolean,
  ): MovementPlan {
    const context = this.context(source, pressure);
    if (call.ok) {
      this.failures.clear(record.originId);
      const { movement, duplicate, warning } = call.value;
      return planAnswer(record, movement, context, duplicate ? { duplicate, ...(warning && { warning }) } : undefined);
    }
    const failures = this.failures.record(record.originId);
    return planCreationFailure(record, call.error, context, { failures, earlierSendMayHaveReached });
  }

  private async write(
    record: MovementRecord,
    plan: MovementPlan,
    step: FollowUpStep,
    countQuery: boolean,
  ): Promise<ApplyUpdateResult> {
    if (plan.failed) step.failedCalls += 1;
    // Named properties first, then the plan's: see answerPatch (movement-plan.ts).
    const update = { countQuery, releaseLease: true, ...plan.update };
    const result = await this.store.applyUpdate(record.originId, this.owner, update);
    if (!result.applied) {
      step.leftDue = true;
      this.logger.warn?.(
        movementLogLine(record.originId, 'the lease expired before the answer was written; another worker owns it now'),
      );
      return result;
    }
    const { announcement } = plan;
    if (announcement?.kind === 'changed') {
      step.changedTo = announcement.to;
      if (isFinalStatus(announcement.to)) this.failures.clear(record.originId);
    }
    if (announcement?.kind === 'anomaly') {
      step.anomaly = true;
      step.anomalyReason = announcement.reason;
      this.logger.error(
        movementLogLine(record.originId, `${announcement.reason} (recorded as an anomaly, not applied)`),
      );
    }
    if (announcement) await this.events.publish(record.originId, announcement);
    return result;
  }

  private async callWithinLease<T>(
    record: MovementRecord,
    priority: BankCallPriority,
    call: (onWritten: () => void) => Promise<T>,
  ): Promise<Settled<T> | typeof LEASE_TOO_SHORT> {
    return this.budget.throttle(priority, async (onWritten) =>
      this.leaseAllowsCall(record) ? settle(() => call(onWritten)) : LEASE_TOO_SHORT,
    );
  }

  private leaseAllowsCall(record: MovementRecord): boolean {
    if (record.leaseExpiresAt === null) return false;
    return record.leaseExpiresAt.getTime() - this.options.clock.now().getTime() >= this.options.callGuardMs;
  }

  /**
   * Holds back a claimed movement that may not be asked about yet (QuerySchedule.heldBack): one taken over from
   * a worker that stopped with its lease, or one whose queries are held (`queriesHeldUntil`) since a query
   * made without its lease. Schedules it for then and gives it back, in one fenced write, asking the bank
   * nothing. Null when it need not wait; `applied: false` when the lease was no longer ours (nothing written).
   * Every claimer that may ask the bank calls this first: the sweep and a refresh through followUp, a raw
   * lookup directly.
   */
  async holdAfterTakeover(record: ClaimedMovement): Promise<{ until: Date; applied: boolean } | null> {
    const now = this.options.clock.now();
    const until = this.schedule.heldBack(record, now);
    if (until === null) return null;
    const takeover = this.schedule.afterTakeover(record, now) !== null;
    const update = { patch: { nextQueryAt: until, queriesHeldUntil: until }, countQuery: false, releaseLease: true };
    const { applied } = await this.store.applyUpdate(record.originId, this.owner, update);
    if (applied) {
      const why = takeover
        ? 'taken over from a worker that stopped with its lease; asked again from %s, in case the bank answered that worker DELAYED'
        : 'queries held back until %s (the bank was asked about it without its lease)';
      this.logger.log(movementLogLine(record.originId, why.replace('%s', until.toISOString())));
    }
    return { until, applied };
  }

  /**
   * Gives back a claimed movement about which nothing was recorded: unworked (a sweep that already worked it in this
   * run, or one that stops), or after its follow-up failed (`step`: what that follow-up did). It is held first, as
   * before any query of it (holdAfterTakeover), when someone may have had an answer about it that could not be
   * recorded: the worker its lease was taken over from (a replica gone silent while still calling the bank, or one
   * whose lease expired mid-call), until that lease's end, or this worker, when its follow-up called the bank, until
   * now. A bare release would leave it due at once, and a query could follow that answer within the polling rule.
   * Otherwise its lease is just released.
   */
  async giveBackUnrecorded(record: ClaimedMovement, step?: FollowUpStep): Promise<void> {
    const calledBank = step !== undefined && step.sent + step.queried > 0;
    const now = this.options.clock.now().getTime();
    const answeredBy = Math.max(now, record.abandonedLeaseExpiredAt?.getTime() ?? 0);
    // A send made here counts (the claim read the attempts before it): one never sent needs no hold.
    const held = calledBank
      ? { ...record, attempts: record.attempts + (step?.sent ?? 0), abandonedLeaseExpiredAt: new Date(answeredBy) }
      : record;
    if ((await this.holdAfterTakeover(held)) === null) await this.store.releaseLease(record.originId, this.owner);
  }

  /**
   * Records an answer the bank gave about a movement this worker has claimed, to a lookup that did not name it
   * by its originId (by network or DEBIN id, before giro knew that name was this movement's): applied like a
   * refresh's answer (planAnswer: an anomaly is recorded, never applied), counted as a query, the lease given
   * back. `learned` adds what the lookup taught (the DEBIN id it named the movement by).
   */
  async recordAnswer(
    record: ClaimedMovement,
    answer: BankMovement,
    learned: MovementPatch = {},
  ): Promise<FollowUpStep> {
    const step = emptyFollowUpStep();
    step.queried += 1;
    step.answer = answer;
    this.failures.clear(record.originId);
    const plan = planAnswer(record, answer, this.context('refresh', 0));
    Object.assign(plan.update.patch, learned);
    await this.write(record, plan, step, true);
    return step;
  }

  /** Too little lease left to start a call: give the movement back untouched; a later sweep takes it. */
  private async giveBack(record: MovementRecord, step: FollowUpStep): Promise<FollowUpStep> {
    this.logger.warn?.(movementLogLine(record.originId, 'too little lease left to call the bank; given back'));
    step.leftDue = true;
    await this.store.releaseLease(record.originId, this.owner);
    return step;
  }

  private context(source: HistorySource, pressure: number): PlanContext {
    return { now: this.options.clock.now(), source, pressure, schedule: this.schedule };
  }
}

async function settle<T>(call: () => Promise<T>): Promise<Settled<T>> {
  try {
    return { ok: true, value: await call() };
  } catch (error) {
    return { ok: false, error };
  }
}
