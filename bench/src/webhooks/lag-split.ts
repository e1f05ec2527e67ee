import { type LatencySummary, ratePerSecond, summarizeLatencies } from '../stats';

/** One event at the receiver: its transfer's originId, when it arrived, and its payload's `timestamp` (the change's). */
export type Arrival = readonly [originId: number, arrivedAtMs: number, changedAtMs: number];

/** The lag run's events, each one's time split at its commit. */
export interface LagSplit {
  /** The commit to the arrival at the receiver: what the dispatcher owes (the goal's lag). */
  delivery: LatencySummary;
  /** The change's time to its commit: the writer's wait for a connection, its statements and its commit. */
  write: LatencySummary;
  /** The change's time to the arrival (both parts; what the bench measured until the commit was recorded). */
  fromChange: LatencySummary;
  /** Events committed per second, from the run's start to its last commit: short of the asked rate when the writers fall behind. */
  committedPerSecond: number;
}

/**
 * Splits each arrival's lag at its event's commit, as the writer saw it return (`committedAtMs`, by originId, on
 * the receiver's clock: one machine). Every arrival must be an event of the run.
 */
export function splitLags(
  arrivals: readonly Arrival[],
  committedAtMs: ReadonlyMap<number, number>,
  runStartedAtMs: number,
): LagSplit {
  const delivery: number[] = [];
  const write: number[] = [];
  const fromChange: number[] = [];
  for (const [originId, arrivedAtMs, changedAtMs] of arrivals) {
    const committed = committedAtMs.get(originId);
    if (committed === undefined) throw new Error(`transfer ${originId} arrived but the lag run did not commit it`);
    delivery.push(arrivedAtMs - committed);
    write.push(committed - changedAtMs);
    fromChange.push(arrivedAtMs - changedAtMs);
  }
  const lastCommitMs = Math.max(...committedAtMs.values());
  return {
    delivery: summarizeLatencies(delivery),
    write: summarizeLatencies(write),
    fromChange: summarizeLatencies(fromChange),
    committedPerSecond: ratePerSecond(committedAtMs.size, lastCommitMs - runStartedAtMs),
  };
}
