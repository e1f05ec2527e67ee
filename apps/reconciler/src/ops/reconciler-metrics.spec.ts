import { ReconcilerMetrics } from './reconciler-metrics';

describe('ReconcilerMetrics', () => {
  const counts = (oldest: Date | null) => ({
    countByStatus: async () => ({
      AWAITING_APPROVAL: 4,
      SCHEDULED: 0,
      PENDING: 1,
      CREATED: 0,
      IN_PROGRESS: 2,
      DELAYED: 0,
      COMPLETED: 5,
      FAILED: 1,
      REJECTED: 0,
      CANCELED: 0,
    }),
    countUnacknowledgedCancellations: async () => 1,
    countUnresolvedAnomalies: async () => 3,
    oldestNonFinalCreatedAt: async () => oldest,
  });

  it('reads the unresolved anomalies and the age of the oldest open movement when scraped', async () => {
    const now = Date.UTC(2026, 10, 21, 12, 0, 0);
    const text = await new ReconcilerMetrics(counts(new Date(now - 90_500)), () => now).metrics();
    expect(text).toContain('giro_anomalies_unresolved 3');
    expect(text).toContain('giro_oldest_non_final_movement_age_seconds 90.5');
    expect(text).toContain('giro_movements{status="IN_PROGRESS"} 2');
    expect(text).toContain('giro_transfers_awaiting_approval 4');
  });

  it('shows an age of 0 when no movement is open', async () => {
    const text = await new ReconcilerMetrics(counts(null)).metrics();
    expect(text).toContain('giro_oldest_non_final_movement_age_seconds 0');
  });

  it('moves the last completed sweep time with each sweep, from the start of the process', async () => {
    let now = Date.UTC(2026, 10, 21, 12, 0, 0);
    const metrics = new ReconcilerMetrics(counts(null), () => now);
    expect(await metrics.metrics()).toContain(`giro_sweep_last_completed_timestamp_seconds ${now / 1000}`);
    now += 30_000;
    metrics.recordFailedSweep(10);
    expect(await metrics.metrics()).toContain(`giro_sweep_last_completed_timestamp_seconds ${(now - 30_000) / 1000}`);
    metrics.recordSweep({ claimed: 1, changed: 1, failed: 0, durationMs: 10 });
    expect(await metrics.metrics()).toContain(`giro_sweep_last_completed_timestamp_seconds ${now / 1000}`);
  });
});
