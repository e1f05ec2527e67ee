import type { LoggerService } from '@nestjs/common';
import { type BankMovement, BankMovementNotFoundError, type CreateTransferResult } from '../bank';
import {
  type Clock,
  intentToWire,
  isFinalStatus,
  type MovementStatus,
  PENDING_STATUS,
  type TransferIntent,
  type TransferRequestWire,
} from '../domain';
import type { ApplyUpdateResult, HistorySource, MovementDetails, MovementRecord, MovementStore } from '../persistence';
import { movementLogLine } from '../transfer/movement-log-line';
import type { TransferEvents } from '../transfer/transfer-events';
import type { BankCallBudget, BankCallPriority } from './bank-call-budget';
import type { FailureCounts } from './failure-counts';
import {
  type MovementPlan,
  type PlanContext,
  planAnswer,
  planCreationFailure,
  planLookupFailure,
} from './movement-plan';
import type { QuerySchedule } from './query-schedule';

/** What giro needs of the bank (BankClient has it). */
export interface BankPort {
  createTransferRequest(request: TransferRequestWire): Promise<CreateTransferResult>;
  getMovement(lookup: { originId: number }): Promise<BankMovement>;
}

export interface MovementReconcilerParts {
  store: MovementStore;
  bank: BankPort;
  budget: BankCallBudget;
  schedule: QuerySchedule;
  failures: FailureCounts;
  events: TransferEvents;
  clock: Clock;
  /** This instance's lease owner. */
  owner: string;
  leaseMs: number;
  /**
   * A bank call starts only while the lease has at least this long left: the longest call plus the polling
   * interval. So if this worker dies with an answer unrecorded, whoever claims the movement after the lease
   * expires asks no sooner than the polling rule allows after that answer.
   */
  callGuardMs: number;
  logger: LoggerService;
}

/** What one piece of work on a movement did, for the sweep's report. */
export interface ReconcileStep {
  /** Creation requests sent. */
  sent: number;
  /** get-movement queries sent. */
  queried: number;
  /** The new status, when it changed. */
  changedTo: MovementStatus | null;
  anomaly: boolean;
  /** Calls without a usable answer. */
  failedCalls: number;
  /**
   * Nothing was written about the movement (given back with too little lease left, or the lease was no longer
   * ours): its nextQueryAt is as it was claimed, so it is still due.
   */
  leftDue: boolean;
}

export type CreateAndSendResult =
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
/** markSendAttempt refused: the lease is no longer ours. */
const NOT_OURS = Symbol('not ours');

/**
 * Does the work on one movement: the first send of a new intent, and the follow-up of a claimed one (look it
 * up; re-send the same originId when the bank does not know it). Every bank call goes through the shared
 * budget; every write is fenced on the lease; events go out after the commit.
 */
export class MovementReconciler {
  constructor(private readonly parts: MovementReconcilerParts) {}

  /**
   * Records the intent durably (leased to this worker, counted as one send that may reach the bank) and then
   * sends it, both inside one slot of the budget, so the lease starts when the request leaves. `created` is
   * false when the originId was already stored (nothing sent).
   */
  async createAndSend(intent: TransferIntent, fingerprint: string): Promise<CreateAndSendResult> {
    const { store, bank, budget, owner, leaseMs } = this.parts;
    const outcome = await budget.run('create', async () => {
      const recorded = await store.recordIntent(intent, fingerprint, { sendNow: true, owner, leaseMs });
      if (!recorded.created) return { recorded, call: undefined };
      return { recorded, call: await settle(() => bank.createTransferRequest(intentToWire(intent))) };
    });
    const { recorded, call } = outcome;
    if (!recorded.created || call === undefined) return { created: false, movement: recorded.movement };
    const step = emptyStep();
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
      // Object.assign rather than a spread followed by new properties: see heardPatch (movement-plan.ts).
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
  async reconcile(
    record: MovementRecord,
    source: 'query' | 'refresh',
    pressure: number,
    /** Filled as the work goes, so what was done still counts if a later write throws. */
    step: ReconcileStep = emptyStep(),
  ): Promise<ReconcileStep> {
    if (record.status === PENDING_STATUS && record.attempts === 0) {
      await this.resend(record, pressure, step, false);
      return step;
    }
    const call = await this.callWithinLease(record, 'query', () =>
      this.parts.bank.getMovement({ originId: record.originId }),
    );
    if (call === LEASE_TOO_SHORT) return this.giveBack(record, step);
    step.queried += 1;
    if (call.ok) {
      this.parts.failures.clear(record.originId);
      await this.write(record, planAnswer(record, call.value, this.context(source, pressure)), step, true);
    } else if (record.status === PENDING_STATUS && call.error instanceof BankMovementNotFoundError) {
      // Not registered (yet), or never received: the same originId again. Never FAILED for this.
      await this.resend(record, pressure, step, true);
    } else {
      const failures = this.parts.failures.record(record.originId);
      await this.write(
        record,
        planLookupFailure(record, call.error, this.context(source, pressure), failures),
        step,
        true,
      );
    }
    return step;
  }

  private async resend(record: MovementRecord, pressure: number, step: ReconcileStep, afterLookup: boolean) {
    const { store, bank, budget, owner } = this.parts;
    const outcome = await budget.run('create', async () => {
      if (!this.leaseAllowsCall(record)) return LEASE_TOO_SHORT;
      // Counted durably before the bytes go out: if this worker dies now, the next one looks it up first.
      if (!(await store.markSendAttempt(record.originId, owner))) return NOT_OURS;
      return settle(() => bank.createTransferRequest(intentToWire(record.intent)));
    });
    if (outcome === LEASE_TOO_SHORT) return this.giveBack(record, step);
    if (outcome === NOT_OURS) {
      step.leftDue = true; // another worker owns it now: nothing sent, nothing written
      return step;
    }
    step.sent += 1;
    const plan = this.planCreation(record, outcome, 'resend', pressure, record.attempts > 0);
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
      this.parts.failures.clear(record.originId);
      const { movement, duplicate, warning } = call.value;
      return planAnswer(record, movement, context, duplicate ? { duplicate, ...(warning && { warning }) } : undefined);
    }
    const failures = this.parts.failures.record(record.originId);
    return planCreationFailure(record, call.error, context, { failures, earlierSendMayHaveReached });
  }

  private async write(
    record: MovementRecord,
    plan: MovementPlan,
    step: ReconcileStep,
    countQuery: boolean,
  ): Promise<ApplyUpdateResult> {
    const { store, owner, events, logger, failures } = this.parts;
    if (plan.failed) step.failedCalls += 1;
    // The plan's fields after named ones, not `{ ...plan.update, countQuery }`: see heardPatch (movement-plan.ts).
    const result = await store.applyUpdate(record.originId, owner, { countQuery, releaseLease: true, ...plan.update });
    if (!result.applied) {
      step.leftDue = true;
      logger.warn?.(
        movementLogLine(record.originId, 'the lease expired before the answer was written; another worker owns it now'),
      );
      return result;
    }
    const { happening } = plan;
    if (happening?.kind === 'changed') {
      step.changedTo = happening.to;
      if (isFinalStatus(happening.to)) failures.clear(record.originId);
    }
    if (happening?.kind === 'anomaly') {
      step.anomaly = true;
      logger.error(movementLogLine(record.originId, `${happening.reason} (recorded as an anomaly, not applied)`));
    }
    if (happening) await events.publish(record.originId, happening);
    return result;
  }

  private async callWithinLease<T>(
    record: MovementRecord,
    priority: BankCallPriority,
    call: () => Promise<T>,
  ): Promise<Settled<T> | typeof LEASE_TOO_SHORT> {
    return this.parts.budget.run(priority, async () => (this.leaseAllowsCall(record) ? settle(call) : LEASE_TOO_SHORT));
  }

  private leaseAllowsCall(record: MovementRecord): boolean {
    if (record.leaseExpiresAt === null) return false;
    return record.leaseExpiresAt.getTime() - this.parts.clock.now().getTime() >= this.parts.callGuardMs;
  }

  /** Too little lease left to start a call: give the movement back untouched; a later sweep takes it. */
  private async giveBack(record: MovementRecord, step: ReconcileStep): Promise<ReconcileStep> {
    this.parts.logger.warn?.(movementLogLine(record.originId, 'too little lease left to call the bank; given back'));
    step.leftDue = true;
    await this.parts.store.releaseLease(record.originId, this.parts.owner);
    return step;
  }

  private context(source: HistorySource, pressure: number): PlanContext {
    return { now: this.parts.clock.now(), source, pressure, schedule: this.parts.schedule };
  }
}

export function emptyStep(): ReconcileStep {
  return { sent: 0, queried: 0, changedTo: null, anomaly: false, failedCalls: 0, leftDue: false };
}

async function settle<T>(call: () => Promise<T>): Promise<Settled<T>> {
  try {
    return { ok: true, value: await call() };
  } catch (error) {
    return { ok: false, error };
  }
}
