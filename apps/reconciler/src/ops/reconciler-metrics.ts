import type { MovementStatus } from '@giro/transfer-module';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { BankCall } from './bank-call-observer';

/** What the gauges read at scrape time (TransferOverviewService has them all). */
export interface MovementCountsSource {
  countByStatus(): Promise<Record<MovementStatus, number>>;
  countUnacknowledgedCancellations(): Promise<number>;
  countUnresolvedAnomalies(): Promise<number>;
  /** When the oldest movement that is not final was created; null when none is open. */
  oldestNonFinalCreatedAt(): Promise<Date | null>;
}

/** The counts of one sweep, as far as the metrics need them. */
export interface SweepCounts {
  claimed: number;
  changed: number;
  failed: number;
  durationMs: number;
}

/**
 * The reconciler's Prometheus metrics, in a registry of its own (several apps in one process, as in the
 * tests, never share one). Movement and cancellation gauges are read from the database when scraped, so
 * every replica reports the same shared state.
 */
export class ReconcilerMetrics {
  readonly registry = new Registry();
  private readonly bankCallSeconds: Histogram<'operation' | 'outcome'>;
  private readonly sweepSeconds: Histogram<'outcome'>;
  private readonly sweepClaimed: Counter;
  private readonly sweepChanged: Counter;
  private readonly sweepFailed: Counter;
  private readonly sweepLastCompleted: Gauge;
  private readonly now: () => number;

  /** `now`: the wall clock the age of the oldest open movement is measured with. */
  constructor(counts: MovementCountsSource, now: () => number = Date.now) {
    const registers = [this.registry];
    this.now = now;
    collectDefaultMetrics({ register: this.registry });
    this.bankCallSeconds = new Histogram({
      name: 'giro_bank_call_duration_seconds',
      help: 'Latency of HTTP exchanges with the bank (to the answer headers), by operation and outcome (HTTP status, or error)',
      labelNames: ['operation', 'outcome'],
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers,
    });
    this.sweepSeconds = new Histogram({
      name: 'giro_sweep_duration_seconds',
      help: 'Duration of reconcile sweeps',
      labelNames: ['outcome'],
      buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
      registers,
    });
    this.sweepClaimed = new Counter({
      name: 'giro_sweep_claimed_total',
      help: 'Movements claimed (leased) by sweeps of this process',
      registers,
    });
    this.sweepChanged = new Counter({
      name: 'giro_sweep_changed_total',
      help: 'Movements whose status changed during sweeps of this process',
      registers,
    });
    this.sweepFailed = new Counter({
      name: 'giro_sweep_failed_total',
      help: 'Movements that became FAILED during sweeps of this process',
      registers,
    });
    this.sweepLastCompleted = new Gauge({
      name: 'giro_sweep_last_completed_timestamp_seconds',
      help: 'When a sweep of this process last completed, in Unix seconds (the start of the process until one has): a sweep stalled stops moving it',
      registers,
    });
    this.sweepLastCompleted.set(now() / 1000);
    new Gauge({
      name: 'giro_movements',
      help: 'Movements in the database, by status',
      labelNames: ['status'],
      registers,
      async collect() {
        this.reset();
        for (const [status, count] of Object.entries(await counts.countByStatus())) this.set({ status }, count);
      },
    });
    new Gauge({
      name: 'giro_transfers_awaiting_approval',
      help: 'Transfers stored AWAITING_APPROVAL: never sent until an approver approves them',
      registers,
      async collect() {
        this.set((await counts.countByStatus()).AWAITING_APPROVAL);
      },
    });
    new Gauge({
      name: 'giro_cancellations_unacknowledged',
      help: 'Cancellations of FAILED movements the host application has not acknowledged yet',
      registers,
      async collect() {
        this.set(await counts.countUnacknowledgedCancellations());
      },
    });
    new Gauge({
      name: 'giro_anomalies_unresolved',
      help: "Anomalies (bank answers contradicting a final status, never applied; statements' debits no transfer explains) no operator has resolved yet",
      registers,
      async collect() {
        this.set(await counts.countUnresolvedAnomalies());
      },
    });
    new Gauge({
      name: 'giro_oldest_non_final_movement_age_seconds',
      help: 'Age of the oldest movement that is not final yet, since its intent was recorded (0 when none is open)',
      registers,
      async collect() {
        const oldest = await counts.oldestNonFinalCreatedAt();
        this.set(oldest === null ? 0 : Math.max(0, now() - oldest.getTime()) / 1000);
      },
    });
  }

  recordBankCall(call: BankCall): void {
    this.bankCallSeconds.observe({ operation: call.operation, outcome: call.outcome }, call.seconds);
  }

  recordSweep(counts: SweepCounts): void {
    this.sweepSeconds.observe({ outcome: 'ok' }, counts.durationMs / 1000);
    this.sweepClaimed.inc(counts.claimed);
    this.sweepChanged.inc(counts.changed);
    this.sweepFailed.inc(counts.failed);
    this.sweepLastCompleted.set(this.now() / 1000);
  }

  recordFailedSweep(durationMs: number): void {
    this.sweepSeconds.observe({ outcome: 'error' }, durationMs / 1000);
  }

  /** The text exposition format, for `GET /metrics`. */
  metrics(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}
