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
}
