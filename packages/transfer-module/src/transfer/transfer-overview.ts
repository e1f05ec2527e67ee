import type { DecimalAmount, MovementStatus } from '../domain';

/** What a back office looks at first (`TransferOverviewService.overview`, `GET /admin/overview`). */
export interface TransferOverview {
  /** Every status, 0 included. */
  countsByStatus: Record<MovementStatus, number>;
  /** The transfers created today (a Buenos Aires day) that are COMPLETED: how many and how much, per currency. */
  sentToday: { currencyId: string; amount: DecimalAmount; count: number }[];
  /** The oldest transfer not final yet (ISO 8601 creation time); null when none is open. */
  oldestNonFinal: { originId: number; status: MovementStatus; createdAt: string } | null;
  /** Anomalies no operator has resolved. */
  anomaliesOpen: number;
  /** Cancellations of FAILED transfers the host has not registered. */
  cancellationsToRegister: number;
  /** Transfers waiting for an approver. */
  awaitingApproval: number;
  /** The SCHEDULED transfers to be sent today and tomorrow (Buenos Aires days): how many and how much. */
  scheduled: { today: ScheduledDay; tomorrow: ScheduledDay };
}

/** A day's scheduled transfers (`YYYY-MM-DD`, Buenos Aires), per currency. */
export interface ScheduledDay {
  day: string;
  totals: { currencyId: string; amount: DecimalAmount; count: number }[];
}

/** What a transfer may be sent with here: what a form offers, so that it offers nothing the module refuses. */
export interface SendingOptions {
  /** The currencies the module sends (ISO 4217 numeric: `032`). */
  currencies: readonly string[];
  /** The concept codes it sends. */
  concepts: readonly string[];
  /** The entity's own source accounts; null when any `from` is taken (no `sourceAccounts` configured). */
  sourceAccounts: { address: string; ownerPersonId: string }[] | null;
  /** PSP mode: registered, enabled client sub-accounts (`GET /admin/sub-accounts`) may send too. */
  psp: boolean;
}
