import {
  BankAuthError,
  BankConflictError,
  type BankMovement,
  BankMovementNotFoundError,
  BankNotSentError,
  BankRateLimitedError,
  BankRejectedError,
} from '../bank';
import { decideTransition, isFinalStatus, type MovementStatus } from '../domain';
import type { HistorySource, MovementPatch, MovementRecord, MovementUpdate } from '../persistence';
import { counterpartyAnomaly, counterpartyMismatch, payeePaymentOf } from './counterparty-check';
import type { MovementAnnouncement } from './movement-events';
import { describeError } from './movement-logger';
import type { QuerySchedule } from './query-schedule';

// What to write after a bank call, decided from the movement as stored and what the bank said (the contract in
// ARCHITECTURE.md). Pure: no I/O, the time comes in `context`. The sender writes the plan fenced on
// its lease and emits the events after the commit.

export interface PlanContext {
  now: Date;
  /** Where the news comes from: `create`, `resend`, `query` or `refresh`. */
  source: HistorySource;
  /** Backlog pressure of the sweep (0 outside sweeps). */
  pressure: number;
  schedule: QuerySchedule;
}

export interface MovementPlan {
  /** The sender adds whether to count a query and releases the lease. */
  update: Omit<MovementUpdate, 'releaseLease' | 'countQuery'>;
  announcement?: MovementAnnouncement;
  /** The call got no usable answer: a failure for the backoff and the sweep's error count. */
  failed: boolean;
}

export const FAILED_BY_BANK = 'the bank reported the transfer as FAILED';

/** An answer of the bank about the movement (a creation's answer, a duplicate's, or a lookup's). */
export function planAnswer(
  record: MovementRecord,
  answer: BankMovement,
  context: PlanContext,
  detail?: Record<string, unknown>,
): MovementPlan {
  const { now, source, pressure, schedule } = context;
  const current = record.status;
  const claimed = answer.status;
  const mismatch = moneyMismatch(record, answer) ?? accountMismatch(record, answer);
  if (mismatch !== undefined) {
    // An answer about other money, or about another account, is not about this transfer, whatever it claims:
    // applying its status could make the movement final by mistake. Recorded and raised as an anomaly, asked
    // again at the usual interval.
    return {
      update: {
        patch: {
          lastAnswerAt: now,
          lastError: mismatch,
          ...nextQuery(current, schedule.afterAnswer(current, now, pressure)),
        },
        history: [{ to: claimed, source: 'anomaly', detail: { reason: mismatch, via: source, answer: answer.raw } }],
      },
      announcement: { kind: 'anomaly', status: current, claimed, reason: mismatch, source },
      failed: false,
    };
  }
  const decision = decideTransition(current, claimed);
  // Another counterparty than the one asked for is raised with the answer that names it; the status is the bank's.
  const counterparty =
    decision.kind === 'apply' || decision.kind === 'unchanged' ? counterpartyMismatch(record, answer) : undefined;
  const raised = counterparty && [counterpartyAnomaly(claimed, counterparty, source, answer)];
  switch (decision.kind) {
    case 'apply':
      return {
        update: {
          patch: answerPatch(answer, now, bankFields(answer), {
            status: claimed,
            nextQueryAt: schedule.afterAnswer(claimed, now, pressure),
          }),
          history: [{ to: claimed, source, ...(detail && { detail }) }, ...(raised ?? [])],
          ...(claimed === 'FAILED' && { cancellation: { code: null, message: FAILED_BY_BANK } }),
          ...(claimed === 'COMPLETED' && { payee: payeePaymentOf(record, answer) }),
        },
        announcement: { kind: 'changed', from: current, to: claimed, source },
        failed: false,
      };
    case 'unchanged':
      return {
        update: {
          patch: answerPatch(
            answer,
            now,
            bankFields(answer),
            nextQuery(current, schedule.afterAnswer(current, now, pressure)),
          ),
          ...(raised && { history: raised }),
        },
        ...(counterparty && {
          announcement: { kind: 'anomaly', status: current, claimed, reason: counterparty.reason, source },
        }),
        failed: false,
      };
    case 'stale': {
      // An older answer arriving late: the status stays, and the next query waits for the longer of the
      // two statuses' rules (the bank times its rule from the status it answered).
      const next = latest(schedule.afterAnswer(current, now, pressure), schedule.afterAnswer(claimed, now, pressure));
      return { update: { patch: answerPatch(answer, now, {}, { nextQueryAt: next }) }, failed: false };
    }
    case 'anomaly':
      // Final is final: the contradiction is recorded and raised, never applied.
      return {
        update: {
          patch: { lastAnswerAt: now },
          history: [
            { to: claimed, source: 'anomaly', detail: { reason: decision.reason, via: source, answer: answer.raw } },
          ],
        },
        announcement: { kind: 'anomaly', status: current, claimed, reason: decision.reason, source },
        failed: false,
      };
  }
}

/**
 * A creation request (first send or re-send) that got no movement back. `earlierSendMayHaveReached`: a send
 * of this originId before this one may have been processed by the bank.
 */
export function planCreationFailure(
  record: MovementRecord,
  error: unknown,
  context: PlanContext,
  attempt: { failures: number; earlierSendMayHaveReached: boolean },
): MovementPlan {
  const { now, pressure, schedule } = context;
  if (error instanceof BankConflictError && (error.isDuplicateCode || attempt.earlierSendMayHaveReached)) {
    // The bank already has this originId: look it up instead of guessing.
    return retryLater(record, `${error.message}; the bank already has this originId, resolving it by lookup`, () =>
      schedule.afterFailure(record.status, now, attempt.failures, pressure),
    );
  }
  if (error instanceof BankRejectedError || error instanceof BankConflictError) {
    // A business rejection: the transfer did not go out. FAILED, with its cancellation, in one write.
    return {
      update: {
        patch: {
          status: 'FAILED',
          lastError: error.message,
          lastAnswerAt: now,
          lastBankAnswer: {
            httpStatus: error.httpStatus ?? null,
            code: error.bankCode ?? null,
            message: error.bankMessage ?? null,
          },
        },
        history: [
          {
            to: 'FAILED',
            source: context.source,
            detail: { httpStatus: error.httpStatus ?? null, code: error.bankCode ?? null },
          },
        ],
        cancellation: { code: error.bankCode ?? null, message: error.bankMessage ?? error.message },
      },
      announcement: { kind: 'changed', from: record.status, to: 'FAILED', source: context.source },
      failed: false,
    };
  }
  const retryAfterMs = error instanceof BankRateLimitedError ? error.retryAfterMs : undefined;
  const plan = retryLater(record, describeError(error), () =>
    schedule.afterFailure(record.status, now, attempt.failures, pressure, retryAfterMs),
  );
  // Not sent, rate-limited, refused credentials: certainly not processed, so this send no longer counts as
  // one that may have reached the bank. Anything else (timeout, reset, 5xx, malformed answer) may have been
  // processed: the count stays, and the movement is looked up before it is ever sent again.
  if (isCertainlyNotProcessed(error)) plan.update.uncountSend = true;
  return plan;
}

/** A lookup that got no movement back. "Not found" of a PENDING movement is handled by re-sending, not here. */
export function planLookupFailure(
  record: MovementRecord,
  error: unknown,
  context: PlanContext,
  failures: number,
): MovementPlan {
  const { now, pressure, schedule } = context;
  const retryAfterMs = error instanceof BankRateLimitedError ? error.retryAfterMs : undefined;
  const message =
    error instanceof BankMovementNotFoundError
      ? `${error.message}; it was acknowledged before, so it is asked again later (never FAILED for this)`
      : describeError(error);
  return retryLater(record, message, () => schedule.afterFailure(record.status, now, failures, pressure, retryAfterMs));
}

function retryLater(record: MovementRecord, lastError: string, next: () => Date | null): MovementPlan {
  return { update: { patch: { lastError, ...nextQuery(record.status, next()) } }, failed: true };
}

function isCertainlyNotProcessed(error: unknown): boolean {
  return error instanceof BankNotSentError || error instanceof BankRateLimitedError || error instanceof BankAuthError;
}

/** A final movement keeps nextQueryAt null: no patch for it. */
function nextQuery(status: MovementStatus, next: Date | null): Pick<MovementPatch, 'nextQueryAt'> {
  return isFinalStatus(status) ? {} : { nextQueryAt: next };
}

/** Why the answer's amount or currency (when it names them) is not the transfer's; undefined when it is. */
function moneyMismatch(record: MovementRecord, answer: BankMovement): string | undefined {
  if (answer.amount !== undefined && answer.amount !== record.amount) {
    return `the bank's answer names the amount ${answer.amount}, the transfer's is ${record.amount}`;
  }
  if (answer.amountCurrency !== undefined && answer.amountCurrency !== record.currencyId) {
    return `the bank's answer names the currency ${answer.amountCurrency}, the transfer's is ${record.currencyId}`;
  }
  return undefined;
}

/** Why the account the answer names (`thisSubAccount`) is not the transfer's `from`; undefined when it is, or unnamed. */
function accountMismatch(record: MovementRecord, answer: BankMovement): string | undefined {
  const address = answer.thisSubAccount?.address;
  if (address === undefined || address === record.intent.from.address) return undefined;
  return `the bank's answer names the account ${address} (thisSubAccount), the transfer is sent from ${record.intent.from.address}`;
}

function latest(a: Date | null, b: Date | null): Date | null {
  if (a === null) return b;
  if (b === null) return a;
  return a.getTime() >= b.getTime() ? a : b;
}

/**
 * What an answer writes: the answer, when it came, no error since, then the bank's fields and `then` (status,
 * next query), in that order.
 *
 * The literal starts with named properties, not with a spread; the package's other code on a per-request or
 * per-answer path does the same (or uses Object.assign) and points here. On Node 20 (V8 11.3) an object
 * literal that starts with a spread and adds a property after it gets a hidden class of its own at every
 * evaluation: many times slower to build, and garbage in old space that only a
 * full GC collects (a long sweep's heap grew by several hidden classes per query).
 */
function answerPatch(answer: BankMovement, now: Date, bank: MovementPatch, then: MovementPatch): MovementPatch {
  return { lastBankAnswer: answer.raw, lastAnswerAt: now, lastError: null, ...bank, ...then };
}

/** The bank's identifiers and times, only those it sent (absent ones stay as stored). */
function bankFields(answer: BankMovement): MovementPatch {
  const fields: MovementPatch = {};
  if (answer.id !== undefined) fields.bankMovementId = answer.id;
  if (answer.networkId !== undefined) fields.networkId = answer.networkId;
  if (answer.network !== undefined) fields.network = answer.network;
  if (answer.postingDatetime !== undefined) fields.postingDatetime = answer.postingDatetime.toISOString();
  if (answer.completedDatetime !== undefined) fields.completedDatetime = answer.completedDatetime.toISOString();
  return fields;
}
