import type { ExecutionRequest, MovementStatus, TransferParty } from '../domain';
import {
  type AnomalyRecord,
  type AnomalyResolutionRecord,
  type ApprovalHold,
  approvalHoldsOf,
  type CancellationRecord,
  type HistoryRecord,
  type HistorySource,
  type MovementDetails,
  type UnknownDebitRecord,
} from '../persistence';
import { type BankDetailsView, toBankDetailsView } from './bank-details-view';
import { COUNTERPARTY_MISMATCH } from './counterparty-check';
import { FAILED_BY_BANK } from './movement-plan';

// What the transfer services return: plain JSON-ready objects (times as ISO 8601 strings, the amount as a
// canonical decimal string), the shape the admin API sends as is.

export type CancellationKind = 'failed' | 'refused';

export interface CancellationView {
  originId: number;
  /** The amount to register back on the host's side, 2 decimals. */
  amount: string;
  currencyId: string;
  /**
   * Why: `kind` says it for a program or a translated page (`failed`: the bank accepted the transfer, then
   * reported it FAILED; `refused`: the bank refused the creation request), `code` and `message` are the bank's
   * when it gave them (else `message` is giro's English, for logs).
   */
  reason: { kind: CancellationKind; code: string | null; message: string | null };
  createdAt: string;
  /** When the host confirmed it registered the cancellation; null until then. */
  acknowledgedAt: string | null;
  /** The host's own registration id, given with the acknowledgement; null when none was. */
  reference: string | null;
  /** Who acknowledged it (an API key's public id and name); null before, or when no one was named. */
  acknowledgedBy: { keyId: string; name: string } | null;
}

export interface HistoryView {
  from: MovementStatus | null;
  to: MovementStatus;
  at: string;
  source: HistorySource;
  /** Who made the change (an API key's public id and name), when a person did: the creator, an approver. */
  by?: { keyId: string; name: string };
  /** Why an approver rejected it, or why it expired (rows with source `rejection` or `expiry`). */
  reason?: string;
}

/** The maker–checker part of a transfer that had to wait for an approval. */
export interface ApprovalView {
  /** While it waits: when it ends REJECTED if no one approves it; null once decided. */
  expiresAt: string | null;
  /** `approved`, `rejected` (by an approver) or `expired`; null while it waits. */
  decision: 'approved' | 'rejected' | 'expired' | null;
  /** Who decided, when a person did. */
  decidedBy: { keyId: string; name: string } | null;
  decidedAt: string | null;
  /** The rejection's reason, or the expiry's. */
  reason: string | null;
  /**
   * Why it had to wait, each rule that held it: `{ reason: "amount" }` (above the approvals threshold),
   * `{ reason: "new_payee" }` (its account was never paid nor approved as a payee).
   */
  holds: { reason: ApprovalHold }[];
}

/** When a scheduled transfer goes (or went) to the bank, and what its request asked for. */
export interface ScheduleView {
  /** The moment it is released, after the calendar moved an `executeOn` to a business day and its release time. */
  executeAt: string;
  /** As asked: `{ executeOn }` or `{ executeAt }`. */
  requested: ExecutionRequest;
}

/** The view of a transfer asked for a moment: its schedule is there. */
export type ScheduledMovementView = MovementView & { schedule: ScheduleView };

/** Whether the view is of a transfer asked for a moment (SCHEDULED, or released or canceled since). */
export function hasSchedule(view: MovementView): view is ScheduledMovementView {
  return view.schedule !== undefined;
}

/** An operator closed an anomaly: who (an API key's public id and name), when and why. */
export interface AnomalyResolutionView {
  at: string;
  by: { keyId: string; name: string };
  note: string;
}

/** A bank answer that contradicted what giro knows (a final status): recorded, never applied. */
export interface AnomalyView {
  /** Its id (`POST /admin/anomalies/:id/resolve`): the id of its history row. */
  id: number;
  at: string;
  /** The status the movement kept. */
  status: MovementStatus | null;
  /** What the bank claimed. */
  claimed: MovementStatus;
  /**
   * What kind of anomaly, when it has a name: `counterparty_mismatch` (the answer names another counterparty than
   * the one asked for; `reason` names both). Absent for a contradiction of the movement's status or money.
   */
  kind?: string;
  reason: string | null;
  /**
   * The bank's details as that answer gave them (type, network, counterparty, thisSubAccount…): what the bank
   * said, which the movement's own `bank` (its latest applied answer) does not show. Null when not recorded.
   */
  bank: BankDetailsView | null;
  /** Null until an operator resolves it; the movement is the same either way. */
  resolution: AnomalyResolutionView | null;
}

/** An anomaly in the list of every movement's (`GET /admin/anomalies`): the anomaly and its movement's originId. */
export interface AnomalyListItemView extends AnomalyView {
  originId: number;
}

/**
 * A debit of the bank's statement no transfer explains, in the anomaly list (`kind` `unknown_debit`): about a
 * statement line, not a transfer — the line that first showed it instead of an originId.
 */
export interface UnknownDebitView {
  /** Its id among the unknown debits (`POST /admin/anomalies/unknown-debits/:id/resolve`), not a history row's. */
  id: number;
  kind: 'unknown_debit';
  at: string;
  reason: string;
  /** The line that showed it, as the store reads it (its amount signed: a debit is negative). */
  statement: UnknownDebitRecord['statement'];
  resolution: AnomalyResolutionView | null;
}

export interface MovementView {
  originId: number;
  /** PENDING until the bank acknowledged the request, then the bank's status. */
  status: MovementStatus;
  amount: string;
  currencyId: string;
  from: TransferParty;
  to: TransferParty;
  description: string;
  concept: string;
  networkId: string | null;
  bankMovementId: string | null;
  /** Sends of the creation request that may have reached the bank. */
  attempts: number;
  queries: number;
  lastError: string | null;
  lastAnswerAt: string | null;
  nextQueryAt: string | null;
  createdAt: string;
  updatedAt: string;
  /** Status changes, oldest first (anomalies are listed apart). */
  history: HistoryView[];
  anomalies: AnomalyView[];
  cancellation: CancellationView | null;
  /** The bank's details from its latest answer (type, network, times, counterparty, thisSubAccount); null before any. */
  bank: BankDetailsView | null;
  /** Present when the transfer had to wait for an approval (AWAITING_APPROVAL at creation). */
  approval?: ApprovalView;
  /** Present when the transfer was scheduled (asked with `executeOn` or `executeAt`, its moment ahead). */
  schedule?: ScheduleView;
  /** Present when a line of an imported bank statement confirmed it: the import, the line's number and day. */
  statement?: { importId: string; line: number; date: string };
}

// The times of a movement are mostly a few milliseconds repeated (created = its first history row, updated =
// last answer = its last row): the last few formatted are kept, which saves most of the toISOString calls.
const RECENTLY_FORMATTED = 16;
const recentlyFormatted = new Map<number, string>();

function isoString(date: Date): string {
  const ms = date.getTime();
  let text = recentlyFormatted.get(ms);
  if (text === undefined) {
    text = date.toISOString(); // throws for an invalid Date (NaN), which is never kept
    if (recentlyFormatted.size >= RECENTLY_FORMATTED) recentlyFormatted.clear();
    recentlyFormatted.set(ms, text);
  }
  return text;
}

const iso = (date: Date | null): string | null => (date === null ? null : isoString(date));

export function toCancellationView(record: CancellationRecord): CancellationView {
  return {
    originId: record.originId,
    amount: record.amount,
    currencyId: record.currencyId,
    reason: {
      kind: record.reasonMessage === FAILED_BY_BANK && record.reasonCode === null ? 'failed' : 'refused',
      code: record.reasonCode,
      message: record.reasonMessage,
    },
    createdAt: isoString(record.createdAt),
    acknowledgedAt: iso(record.acknowledgedAt),
    reference: record.reference,
    acknowledgedBy: record.acknowledgedBy && { keyId: record.acknowledgedBy.keyId, name: record.acknowledgedBy.name },
  };
}

export function toMovementView(details: MovementDetails): MovementView {
  const { intent } = details;
  const changes = details.history.filter((row) => row.source !== 'anomaly');
  const anomalies = details.history.filter((row) => row.source === 'anomaly');
  return {
    originId: details.originId,
    status: details.status,
    amount: details.amount,
    currencyId: details.currencyId,
    from: intent.from,
    to: intent.to,
    description: intent.description,
    concept: intent.concept,
    networkId: details.networkId,
    bankMovementId: details.bankMovementId,
    attempts: details.attempts,
    queries: details.queries,
    lastError: details.lastError,
    lastAnswerAt: iso(details.lastAnswerAt),
    nextQueryAt: iso(details.nextQueryAt),
    createdAt: isoString(details.createdAt),
    updatedAt: isoString(details.updatedAt),
    history: changes.map(toHistoryView),
    anomalies: anomalies.map((row) => toAnomalyView(row, resolutionOf(details, row.id))),
    cancellation: details.cancellation ? toCancellationView(details.cancellation) : null,
    bank: toBankDetailsView(details.lastBankAnswer),
    ...approvalOf(details),
    ...scheduleOf(details),
    ...(details.statement && {
      statement: { importId: details.statement.importId, line: details.statement.line, date: details.statement.date },
    }),
  };
}

/** `{ schedule }` for a transfer that waits (or waited) for its moment, else nothing. */
function scheduleOf(details: MovementDetails): { schedule?: ScheduleView } {
  const { executeAt, intent } = details;
  if (executeAt === null || intent.execution === undefined) return {};
  return { schedule: { executeAt: isoString(executeAt), requested: intent.execution } };
}

function toHistoryView(row: HistoryRecord): HistoryView {
  const view: HistoryView = { from: row.from, to: row.to, at: isoString(row.at), source: row.source };
  if (row.by !== null) view.by = row.by;
  const reason = decisionReasonOf(row);
  if (reason !== null) view.reason = reason;
  return view;
}

const DECISIONS = { approval: 'approved', rejection: 'rejected', expiry: 'expired' } as const;

/** `{ approval }` for a transfer that waited for one (its first row is AWAITING_APPROVAL), else nothing. */
function approvalOf(details: MovementDetails): { approval?: ApprovalView } {
  if (details.history[0]?.to !== 'AWAITING_APPROVAL') return {};
  const decided = details.history.find((row) => row.source in DECISIONS);
  return {
    approval: {
      expiresAt: iso(details.approvalExpiresAt),
      decision: decided ? DECISIONS[decided.source as keyof typeof DECISIONS] : null,
      decidedBy: decided?.by ?? null,
      decidedAt: decided ? isoString(decided.at) : null,
      reason: decided ? decisionReasonOf(decided) : null,
      holds: approvalHoldsOf(details.history[0].detail).map((reason) => ({ reason })),
    },
  };
}

/** Why a transfer was rejected or expired (a `rejection` or `expiry` row's reason); null for other rows. */
function decisionReasonOf(row: HistoryRecord): string | null {
  return row.source === 'rejection' || row.source === 'expiry' ? reasonOf(row.detail) : null;
}

/**
 * The status the movement kept by an anomaly: its status before the answer (the answer was not applied), or for a
 * counterparty mismatch the bank's, which was applied beside it.
 */
export function keptStatusOf(
  before: MovementStatus | null,
  claimed: MovementStatus,
  detail: unknown,
): MovementStatus | null {
  return anomalyKindOf(detail).kind === COUNTERPARTY_MISMATCH ? claimed : before;
}

/** `{ kind }` of an anomaly row whose detail names one. */
export function anomalyKindOf(detail: unknown): { kind?: string } {
  const kind = (detail as { kind?: unknown } | null)?.kind;
  return typeof kind === 'string' ? { kind } : {};
}

function resolutionOf(details: MovementDetails, historyId: number): AnomalyResolutionRecord | null {
  return details.resolutions?.find((resolution) => resolution.historyId === historyId) ?? null;
}

function toAnomalyView(row: HistoryRecord, resolution: AnomalyResolutionRecord | null): AnomalyView {
  return {
    id: row.id,
    at: isoString(row.at),
    status: keptStatusOf(row.from, row.to, row.detail),
    claimed: row.to,
    ...anomalyKindOf(row.detail),
    reason: reasonOf(row.detail),
    bank: answerDetailsOf(row.detail),
    resolution: resolution && toResolutionView(resolution),
  };
}

/** An anomaly as the list of every movement's shows it. */
export function toAnomalyListItemView(record: AnomalyRecord): AnomalyListItemView {
  return {
    id: record.id,
    originId: record.originId,
    at: isoString(record.at),
    status: keptStatusOf(record.status, record.claimed, record.detail),
    claimed: record.claimed,
    ...anomalyKindOf(record.detail),
    reason: reasonOf(record.detail),
    bank: answerDetailsOf(record.detail),
    resolution: record.resolution && toResolutionView(record.resolution),
  };
}

/** A debit no transfer explains as the anomaly list shows it. */
export function toUnknownDebitView(record: UnknownDebitRecord): UnknownDebitView {
  return {
    id: record.id,
    kind: record.kind,
    at: isoString(record.at),
    reason: `the bank's statement debited ${record.statement.amount.replace(/^-/, '')} that no transfer explains`,
    statement: { ...record.statement },
    resolution: record.resolution && toResolutionView(record.resolution),
  };
}

function toResolutionView(resolution: Omit<AnomalyResolutionRecord, 'historyId'>): AnomalyResolutionView {
  return {
    at: isoString(resolution.at),
    by: { keyId: resolution.by.keyId, name: resolution.by.name },
    note: resolution.note,
  };
}

/** The details of the answer an anomaly recorded (`detail.answer`, as movement-plan.ts writes it). */
function answerDetailsOf(detail: unknown): BankDetailsView | null {
  const answer = (detail as { answer?: unknown } | null)?.answer;
  return answer === undefined ? null : toBankDetailsView(answer);
}

function reasonOf(detail: unknown): string | null {
  const reason = (detail as { reason?: unknown } | null)?.reason;
  return typeof reason === 'string' ? reason : null;
}
