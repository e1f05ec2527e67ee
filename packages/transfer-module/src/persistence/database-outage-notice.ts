/** Within this long of the last failure, a failure belongs to the same outage. */
export const SAME_OUTAGE_MS = 30_000;

/**
 * Decides which failures of one outage of the database are worth a log line: the first, and then none until the
 * database has answered for SAME_OUTAGE_MS. Work that handles many movements (a sweep's follow-ups, the events
 * of each update) meets an outage once per movement; the operator needs to hear of it once per outage, with its
 * cause.
 */
export class DatabaseOutageNotice {
  private lastFailureMs = Number.NEGATIVE_INFINITY;
  /** Failures not logged since the last line. */
  private unsaid = 0;

  /** Records a failure; returns how many went unsaid before it when it opens a new outage (log it), else null. */
  failed(nowMs = Date.now()): number | null {
    const opens = nowMs - this.lastFailureMs >= SAME_OUTAGE_MS;
    this.lastFailureMs = nowMs;
    if (!opens) {
      this.unsaid += 1;
      return null;
    }
    const unsaid = this.unsaid;
    this.unsaid = 0;
    return unsaid;
  }
}
