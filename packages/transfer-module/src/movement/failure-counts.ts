/**
 * Bank calls in a row that got no usable answer, per movement, for the backoff. Kept in memory: after a
 * restart the backoff starts small again, which only means one earlier retry. Cleared by an answer.
 */
export class FailureCounts {
  private readonly counts = new Map<number, number>();

  /** Counts one more failure and returns how many in a row. */
  record(originId: number): number {
    const count = (this.counts.get(originId) ?? 0) + 1;
    this.counts.set(originId, count);
    return count;
  }

  clear(originId: number): void {
    this.counts.delete(originId);
  }
}
