import { isFinalStatus } from '../domain/bank-status';
import type { ManualClock } from '../domain/clock';
import type { SweepService } from '../sweep/sweep.service';
import type { TransferOverviewService } from '../transfer/transfer-overview.service';

export interface SweepUntilFinalOptions {
  /** How far the clock moves before each sweep (default 50 ms). */
  stepMs?: number;
  /** Sweeps before giving up with an error naming the counts left (default 400). */
  maxSteps?: number;
}

/** The sweeps' reports added up. */
export interface SweepTotals {
  sweeps: number;
  sent: number;
  queried: number;
  errors: number;
  anomalies: number;
}

/**
 * Moves `clock` and sweeps until every movement is final: for tests that run giro on a ManualClock against a
 * bank (the sandbox bank) that uses the same clock, so the polling rule is followed exactly and nothing sleeps.
 */
export async function sweepUntilFinal(
  giro: { overview: TransferOverviewService; reconcile: SweepService },
  clock: ManualClock,
  options: SweepUntilFinalOptions = {},
): Promise<SweepTotals> {
  const { stepMs = 50, maxSteps = 400 } = options;
  const total: SweepTotals = { sweeps: 0, sent: 0, queried: 0, errors: 0, anomalies: 0 };
  for (let step = 0; step < maxSteps; step++) {
    if (allFinal(await giro.overview.countByStatus())) return total;
    clock.advance(stepMs);
    const report = await giro.reconcile.sweep();
    total.sweeps += 1;
    total.sent += report.sent;
    total.queried += report.queried;
    total.errors += report.errors;
    total.anomalies += report.anomalies;
  }
  const left = await giro.overview.countByStatus();
  if (allFinal(left)) return total;
  throw new Error(`movements still not final after ${maxSteps} sweeps: ${JSON.stringify(left)}`);
}

function allFinal(counts: Record<string, number>): boolean {
  return Object.entries(counts).every(([status, count]) => count === 0 || isFinalStatus(status));
}
