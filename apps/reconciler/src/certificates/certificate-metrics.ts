import { Gauge, type Registry } from 'prom-client';
import type { CertificateExpiries } from './certificate-expiry';

/**
 * `giro_certificate_expiry_timestamp_seconds{certificate="client"|"ca"}`: when the certificates in use stop being
 * valid, read at scrape time, so that a reloaded certificate shows at the next scrape. No `ca` series with Node's
 * trusted roots.
 */
export function registerCertificateMetrics(registry: Registry, expiries: () => CertificateExpiries): void {
  new Gauge({
    name: 'giro_certificate_expiry_timestamp_seconds',
    help: 'When the bank client certificate (client) and the bank CA (ca, its earliest certificate) expire, in Unix seconds',
    labelNames: ['certificate'],
    registers: [registry],
    collect() {
      this.reset();
      for (const [certificate, expiry] of Object.entries(expiries())) {
        if (expiry !== undefined) this.set({ certificate }, (expiry as Date).getTime() / 1000);
      }
    },
  });
}
