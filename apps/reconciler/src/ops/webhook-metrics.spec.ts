import { Registry } from 'prom-client';
import { WebhookMetrics } from './webhook-metrics';

describe('WebhookMetrics', () => {
  it('reads the outbox once per scrape for its gauges, and counts the attempts and the lag it is told of', async () => {
    let now = 1_000_000;
    let reads = 0;
    const source = {
      countDeliveries: async () => {
        reads++;
        return { pending: 5, failing: 2, dead: 1, oldestPendingAt: new Date(now - 90_000) };
      },
    };
    const registry = new Registry();
    const metrics = new WebhookMetrics(registry, source, () => now);
    metrics.attempted('delivered', 120);
    metrics.attempted('delivered', 2_000);
    metrics.attempted('retry', null);
    metrics.attempted('dead', null);

    const text = await registry.metrics();
    expect(reads).toBe(1);
    expect(text).toContain('giro_webhook_deliveries_pending 5');
    expect(text).toContain('giro_webhook_deliveries_failing 2');
    expect(text).toContain('giro_webhook_deliveries_dead 1');
    expect(text).toContain('giro_webhook_oldest_pending_age_seconds 90');
    expect(text).toContain('giro_webhook_attempts_total{outcome="delivered"} 2');
    expect(text).toContain('giro_webhook_attempts_total{outcome="retry"} 1');
    expect(text).toContain('giro_webhook_attempts_total{outcome="dead"} 1');
    expect(text).toContain('giro_webhook_delivery_lag_seconds_count 2');
    expect(text).toContain('giro_webhook_delivery_lag_seconds_sum 2.12');
    expect(text).toContain('giro_webhook_delivery_lag_seconds_bucket{le="0.25"} 1');

    // A later scrape reads again.
    now += 5_000;
    await registry.metrics();
    expect(reads).toBe(2);
  });

  it('shows no age when nothing is pending, and a failed read is asked again at the next scrape', async () => {
    let fail = true;
    const registry = new Registry();
    new WebhookMetrics(registry, {
      countDeliveries: async () => {
        if (fail) throw new Error('database down');
        return { pending: 0, failing: 0, dead: 0, oldestPendingAt: null };
      },
    });
    await expect(registry.metrics()).rejects.toThrow('database down');
    fail = false;
    expect(await registry.metrics()).toContain('giro_webhook_oldest_pending_age_seconds 0');
  });
});
