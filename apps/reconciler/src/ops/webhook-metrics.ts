import type { WebhookAttemptObserver, WebhookDeliveryCounts } from '@giro/transfer-module';
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';

/** What the gauges read at scrape time (WebhookService has it). */
export interface WebhookCountsSource {
  countDeliveries(): Promise<WebhookDeliveryCounts>;
}

/** One read of the counts serves every gauge of a scrape. */
const COUNTS_FRESH_MS = 1000;

/**
 * The webhooks in the reconciler's metrics. Gauges read the outbox from the database when scraped (the same in
 * every replica): deliveries pending, failing (pending after a failed attempt), dead, and the age of the oldest
 * pending one. Counters and the lag histogram are this process's attempts, as its dispatcher reports them.
 */
export class WebhookMetrics implements WebhookAttemptObserver {
  private readonly attempts: Counter<'outcome'>;
  private readonly lagSeconds: Histogram;
  private counts: { at: number; read: Promise<WebhookDeliveryCounts> } | undefined;

  constructor(
    registry: Registry,
    private readonly source: WebhookCountsSource,
    private readonly now: () => number = Date.now,
  ) {
    const registers = [registry];
    this.attempts = new Counter({
      name: 'giro_webhook_attempts_total',
      help: 'Webhook delivery attempts recorded by this process, by outcome: delivered, retry (failed, tried again later), dead (failed, no try left)',
      labelNames: ['outcome'],
      registers,
    });
    for (const outcome of ['delivered', 'retry', 'dead']) this.attempts.inc({ outcome }, 0);
    this.lagSeconds = new Histogram({
      name: 'giro_webhook_delivery_lag_seconds',
      help: "From an event's commit to its delivery (retries included), for the deliveries of this process",
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 1800, 3600, 21_600, 86_400],
      registers,
    });
    const counts = () => this.readCounts();
    const gauge = (name: string, help: string, read: (counts: WebhookDeliveryCounts) => number) =>
      new Gauge({
        name,
        help,
        registers,
        async collect() {
          this.set(read(await counts()));
        },
      });
    gauge(
      'giro_webhook_deliveries_pending',
      'Webhook deliveries waiting to be delivered (failing ones included)',
      (c) => c.pending,
    );
    gauge('giro_webhook_deliveries_failing', 'Pending webhook deliveries whose last attempt failed', (c) => c.failing);
    gauge(
      'giro_webhook_deliveries_dead',
      'Webhook deliveries given up after the last try (redeliver them through the admin API)',
      (c) => c.dead,
    );
    gauge(
      'giro_webhook_oldest_pending_age_seconds',
      'Age of the oldest pending webhook event (0 when none waits)',
      (c) => (c.oldestPendingAt === null ? 0 : Math.max(0, this.now() - c.oldestPendingAt.getTime()) / 1000),
    );
  }

  attempted(outcome: 'delivered' | 'retry' | 'dead', lagMs: number | null): void {
    this.attempts.inc({ outcome });
    if (lagMs !== null) this.lagSeconds.observe(Math.max(0, lagMs) / 1000);
  }

  private readCounts(): Promise<WebhookDeliveryCounts> {
    const at = this.now();
    if (this.counts === undefined || at - this.counts.at > COUNTS_FRESH_MS) {
      const read = this.source.countDeliveries();
      // A failed read is not kept: the next scrape asks again.
      read.catch(() => {
        if (this.counts?.read === read) this.counts = undefined;
      });
      this.counts = { at, read };
    }
    return this.counts.read;
  }
}
