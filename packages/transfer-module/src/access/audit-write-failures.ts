import type { LoggerService } from '@nestjs/common';

/** Within this long of the last failure, a failure is part of the same outage. */
const SAME_OUTAGE_MS = 30_000;

/**
 * Logs the audit rows a database outage keeps from being written: the first failure of an outage with its cause,
 * then, at the first row written after it, how many were not. A failure within SAME_OUTAGE_MS of the last one is
 * the same outage, even after a row got through in between — a disk that is full, or a file another process
 * locks, fails some writes and lets others through, and the log must name the outage once, not once a flap.
 */
export class AuditWriteFailures {
  private outage: { lastFailureMs: number; lost: number; recoveryLogged: boolean } | undefined;

  constructor(private readonly logger?: LoggerService) {}

  /** `what`: the row that was not written; `cause`: the database's message. */
  failed(what: string, cause: string, nowMs = Date.now()): void {
    if (this.outage !== undefined && nowMs - this.outage.lastFailureMs < SAME_OUTAGE_MS) {
      this.outage.lastFailureMs = nowMs;
      this.outage.lost += 1;
      return;
    }
    this.logger?.warn(
      `an audit row could not be written (${what}): ${cause}; failures within ${SAME_OUTAGE_MS / 1000} s of the last are this outage's and not logged again`,
    );
    this.outage = { lastFailureMs: nowMs, lost: 1, recoveryLogged: false };
  }

  written(): void {
    if (this.outage === undefined || this.outage.recoveryLogged) return;
    this.logger?.log(`the audit trail takes rows again (${this.outage.lost} could not be written)`);
    this.outage.recoveryLogged = true;
  }
}
