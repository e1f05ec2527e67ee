/**
 * The anomalies that have a name, as their `kind` says it: a bank answer naming another counterparty than the one
 * asked for, and the bank's statement disagreeing with a transfer (another amount, a COMPLETED transfer absent) or
 * with giro (a debit no transfer explains). A contradiction of a transfer's status has no kind.
 */
export const ANOMALY_KINDS = {
  counterpartyMismatch: 'counterparty_mismatch',
  amountMismatch: 'amount_mismatch',
  missingInStatement: 'missing_in_statement',
  unknownDebit: 'unknown_debit',
} as const;

export type AnomalyKind = (typeof ANOMALY_KINDS)[keyof typeof ANOMALY_KINDS];

/** Every kind, in the order above (the anomaly list's filter `kind` takes one). */
export const ANOMALY_KIND_NAMES: readonly AnomalyKind[] = Object.values(ANOMALY_KINDS);
