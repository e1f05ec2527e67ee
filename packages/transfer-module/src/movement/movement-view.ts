import type { MovementStatus, TransferParty } from '../domain';
import type { CancellationRecord, HistoryRecord, HistorySource, MovementDetails } from '../persistence';
import { type BankDetailsView, toBankDetailsView } from './bank-details-view';

// What the TransferService returns: plain JSON-ready objects (times as ISO 8601 strings, the amount as a
// canonical decimal string), the shape the admin API sends as is.

export interface CancellationView {
  originId: number;
  /** The amount to register back on the host's side, 2 decimals. */
  amount: string;
  currencyId: string;
  /** Why the bank refused or failed the transfer, when it said. */
  reason: { code: string | null; message: string | null };
  createdAt: string;
  /** When the host confirmed it registered the cancellation; null until then. */
  acknowledgedAt: string | null;
}

export interface HistoryView {
  from: MovementStatus | null;
  to: MovementStatus;
  at: string;
  source: HistorySource;
}

/** A bank answer that contradicted a final status: recorded, never applied. */
export interface AnomalyView {
  at: string;
  /** The status the movement kept. */
  status: MovementStatus | null;
  /** What the bank claimed. */
  claimed: MovementStatus;
  reason: string | null;
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
    reason: { code: record.reasonCode, message: record.reasonMessage },
    createdAt: isoString(record.createdAt),
    acknowledgedAt: iso(record.acknowledgedAt),
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
    history: changes.map((row) => ({ from: row.from, to: row.to, at: isoString(row.at), source: row.source })),
    anomalies: anomalies.map(toAnomalyView),
    cancellation: details.cancellation ? toCancellationView(details.cancellation) : null,
    bank: toBankDetailsView(details.lastBankAnswer),
  };
}

function toAnomalyView(row: HistoryRecord): AnomalyView {
  const detail = row.detail as { reason?: unknown } | null;
  return {
    at: isoString(row.at),
    status: row.from,
    claimed: row.to,
    reason: typeof detail?.reason === 'string' ? detail.reason : null,
  };
}
