import type { BankMovement } from '../bank';
import type { MovementStatus } from '../domain';

/** What one piece of work on a movement did, for the sweep's report. */
export interface FollowUpStep {
  /** Creation requests sent. */
  sent: number;
  /** get-movement queries sent. */
  queried: number;
  /** The new status, when it changed. */
  changedTo: MovementStatus | null;
  anomaly: boolean;
  /** Why the last answer was recorded as an anomaly and not applied; null when it was not one. */
  anomalyReason: string | null;
  /**
   * The bank's last answer about the movement (a lookup's or a re-send's), as it came, applied or not: what a
   * caller that asked on demand is shown. Null when no call got a movement back.
   */
  answer: BankMovement | null;
  /** Calls without a usable answer. */
  failedCalls: number;
  /**
   * Nothing was written about the movement (given back with too little lease left, or the lease was no longer
   * ours): its nextQueryAt is as it was claimed, so it is still due.
   */
  leftDue: boolean;
  /** Taken over from a worker that stopped with its lease: not asked before then (QuerySchedule.afterTakeover). */
  deferredUntil: Date | null;
}

export function emptyFollowUpStep(): FollowUpStep {
  return {
    sent: 0,
    queried: 0,
    changedTo: null,
    anomaly: false,
    anomalyReason: null,
    answer: null,
    failedCalls: 0,
    leftDue: false,
    deferredUntil: null,
  };
}
