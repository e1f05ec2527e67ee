import { ANOMALY_KINDS } from '../domain';
import type { RecordedActor } from './movement-records';

/**
 * The anomaly kinds a statement raises (`unknown_debit` names a line, no transfer).
 * @deprecated Use `ANOMALY_KINDS`, which names every kind (these three among them); this copy goes in a later
 * major version.
 */
export const STATEMENT_ANOMALIES = {
  unknownDebit: ANOMALY_KINDS.unknownDebit,
  amountMismatch: ANOMALY_KINDS.amountMismatch,
  missingInStatement: ANOMALY_KINDS.missingInStatement,
} as const;

/** Items of each list an import's answer gives (its counts give them all). */
export const STATEMENT_REPORT_ITEMS = 1000;

/**
 * What became of a statement line: `matched` (it confirms the transfer its reference names), `amount_mismatch`
 * (it names one, with another amount), `unknown_debit` (a debit no transfer explains), `ambiguous` (its reference
 * names two transfers: not a match), `already_matched` (another line confirms the transfer it names), `credit`
 * (money in: not about giro's transfers).
 */
export type LineOutcome = 'matched' | 'amount_mismatch' | 'unknown_debit' | 'ambiguous' | 'already_matched' | 'credit';

/** The statement line that confirmed a transfer (its import, its number there, its day). */
export interface StatementConfirmation {
  importId: string;
  line: number;
  date: string;
}

/** A statement line as read from the file: its number there, its day, its signed amount in cents (a debit < 0). */
export interface StatementLineInput {
  line: number;
  date: string;
  amountCents: bigint;
  reference: string;
  description: string;
}

/** One import of a statement. */
export interface StatementImportRecord {
  id: string;
  account: string;
  sha256: string;
  /** The first and last day its lines cover (null when it had none). */
  periodFrom: string | null;
  periodTo: string | null;
  lines: number;
  counts: { matched: number; onlyInStatement: number; onlyInGiro: number; amountMismatch: number };
  createdAt: Date;
  by: RecordedActor | null;
}

/** A line and the transfer it names (either may be absent), and what it is. */
export interface StatementItem {
  kind: LineOutcome | 'missing_in_statement';
  line: { number: number; date: string; amount: string; reference: string } | null;
  transfer: { originId: number; networkId: string | null; amount: string } | null;
}

/** An import and its lists, each its first STATEMENT_REPORT_ITEMS items in line (or originId) order. */
export interface StatementReport extends StatementImportRecord {
  matched: StatementItem[];
  onlyInStatement: StatementItem[];
  onlyInGiro: StatementItem[];
  amountMismatch: StatementItem[];
}
