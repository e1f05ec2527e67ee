import type { BankMovement } from '../bank';
import { ANOMALY_KINDS } from '../domain';
import type { HistoryEntry, HistorySource, MovementRecord, PayeePayment } from '../persistence';

// Who the bank says was paid, against who giro asked to pay. The bank cannot check a payee before paying, so giro
// reads every answer: a counterparty CUIT or account other than the transfer's `to` is raised at once (an anomaly,
// and its webhook), the status still the bank's; a COMPLETED answer teaches the payee book the holder's name.

/** The anomaly kind of an answer naming a counterparty other than the one asked for. */
export const COUNTERPARTY_MISMATCH = ANOMALY_KINDS.counterpartyMismatch;

/** What an answer's counterparty names, and what the transfer asked for, side by side. */
export interface CounterpartyMismatch {
  kind: typeof COUNTERPARTY_MISMATCH;
  reason: string;
  requested: { personId: string; address: string };
  answered: { personId: string | null; address: string | null };
}

/**
 * The anomaly an answer's counterparty raises: its CUIT (`personId`) or its account differs from the transfer's
 * `to`. Undefined when it is the same, not named, or when the previous stored answer already named the same
 * counterparty (raised then: each different counterparty is raised once).
 */
export function counterpartyMismatch(record: MovementRecord, answer: BankMovement): CounterpartyMismatch | undefined {
  const mismatch = mismatchOf(record, answer.counterparty);
  if (mismatch === undefined) return undefined;
  const before = mismatchOf(record, counterpartyOfRaw(record.lastBankAnswer));
  if (
    before !== undefined &&
    before.answered.personId === mismatch.answered.personId &&
    before.answered.address === mismatch.answered.address
  ) {
    return undefined;
  }
  return mismatch;
}

/** The history row that raises `mismatch`: an anomaly row that leaves the status as the bank said it. */
export function counterpartyAnomaly(
  claimed: HistoryEntry['to'],
  mismatch: CounterpartyMismatch,
  source: HistorySource,
  answer: BankMovement,
): HistoryEntry {
  return { to: claimed, source: 'anomaly', detail: { ...mismatch, via: source, answer: answer.raw } };
}

/** What a COMPLETED answer teaches the payee book about the transfer's destination account. */
export function payeePaymentOf(record: MovementRecord, answer: BankMovement): PayeePayment {
  const { to } = record.intent;
  const payment: PayeePayment = { address: to.address, requestedPersonId: to.owner.personId, amount: record.amount };
  if (answer.counterparty?.personId !== undefined) payment.holderPersonId = answer.counterparty.personId;
  if (answer.counterparty?.personName !== undefined) payment.holderName = answer.counterparty.personName;
  return payment;
}

function mismatchOf(
  record: MovementRecord,
  counterparty: { personId?: string; address?: string } | undefined,
): CounterpartyMismatch | undefined {
  if (counterparty === undefined) return undefined;
  const requested = { personId: record.intent.to.owner.personId, address: record.intent.to.address };
  const personId = counterparty.personId ?? null;
  const address = counterparty.address ?? null;
  const reasons: string[] = [];
  if (personId !== null && personId !== requested.personId) {
    reasons.push(`the CUIT ${personId} (the transfer asked for ${requested.personId})`);
  }
  if (address !== null && address !== requested.address) {
    reasons.push(`the account ${address} (the transfer asked for ${requested.address})`);
  }
  if (reasons.length === 0) return undefined;
  return {
    kind: COUNTERPARTY_MISMATCH,
    reason: `the bank's answer names another counterparty: ${reasons.join(' and ')}`,
    requested,
    answered: { personId, address },
  };
}

/** The counterparty of a stored raw answer (the bank's JSON as it came), read as tolerantly as the parser does. */
function counterpartyOfRaw(raw: unknown): { personId?: string; address?: string } | undefined {
  const counterparty = (raw as { counterparty?: unknown } | null)?.counterparty;
  if (typeof counterparty !== 'object' || counterparty === null) return undefined;
  const { personId, accountRouting } = counterparty as { personId?: unknown; accountRouting?: unknown };
  const address = (accountRouting as { address?: unknown } | null)?.address;
  return {
    ...(typeof personId === 'string' && { personId }),
    ...(typeof address === 'string' && { address }),
  };
}
