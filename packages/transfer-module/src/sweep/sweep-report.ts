import type { FollowUpStep } from '../movement';

/** What one sweep did. */
export interface SweepReport {
  /** Movements leased by this sweep. */
  claimed: number;
  /** Creation requests sent (re-sends of the same originId). */
  sent: number;
  /** get-movement queries sent. */
  queried: number;
  /** Status changes written. */
  changed: number;
  completed: number;
  failed: number;
  /** Answers that contradicted a final status (recorded, not applied). */
  anomalies: number;
  /** Transfers whose approval expired, ended REJECTED (never sent). */
  expired: number;
  /** Scheduled transfers whose moment came, released by this sweep's claims (PENDING, leased to it, sent at once). */
  released: number;
  /** The day whose close this sweep announced (`report.daily_closed`); null when none. */
  closedDay: string | null;
  /** Bank calls without a usable answer, and movements whose work failed (each retried later). */
  errors: number;
  durationMs: number;
  /**
   * After the sweep's work: the earliest nextQueryAt of a movement not final and not leased, approval expiry or
   * scheduled transfer's moment (maybe already past), for the scheduler's next wake-up; null when nothing is
   * pending.
   */
  nextDueAt: Date | null;
}

export function emptySweepReport(): SweepReport {
  return {
    claimed: 0,
    sent: 0,
    queried: 0,
    changed: 0,
    completed: 0,
    failed: 0,
    anomalies: 0,
    expired: 0,
    released: 0,
    closedDay: null,
    errors: 0,
    durationMs: 0,
    nextDueAt: null,
  };
}

export function addStep(report: SweepReport, step: FollowUpStep): void {
  report.sent += step.sent;
  report.queried += step.queried;
  report.errors += step.failedCalls;
  if (step.anomaly) report.anomalies += 1;
  if (step.changedTo !== null) report.changed += 1;
  if (step.changedTo === 'COMPLETED') report.completed += 1;
  if (step.changedTo === 'FAILED') report.failed += 1;
}
