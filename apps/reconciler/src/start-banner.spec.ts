import { certificatePaths, type SandboxBank } from '@giro/sandbox-bank';
import type { BankClientOptions } from '@giro/transfer-module';
import { reconcilerConfigFromEnv } from './config/reconciler-config';
import type { SandboxMode } from './sandbox/sandbox-mode';
import { sandboxBanner } from './start-banner';

const sandbox: SandboxMode = {
  bank: { url: 'https://127.0.0.1:8443' } as SandboxBank,
  clientOptions: {} as BankClientOptions,
  certificates: certificatePaths('certs'),
};

function bannerFor(env: Record<string, string>): string {
  return sandboxBanner({
    url: 'http://localhost:3000',
    adminToken: 'generated-admin-token',
    generatedToken: true,
    sandbox,
    config: reconcilerConfigFromEnv(env),
    logFile: 'data/reconciler.log',
  });
}

describe('sandboxBanner', () => {
  it('shows the jitter bound, the bank-call budget and the sweep settings in force', () => {
    const banner = bannerFor({
      POLL_MAX_JITTER_MS: '40',
      BANK_MAX_IN_FLIGHT: '4',
      BANK_RATE_PER_SECOND: '2.5',
      SWEEP_BATCH_SIZE: '50',
      SWEEP_CONCURRENCY: '3',
      SWEEP_INTERVAL_MS: '2000',
    });
    expect(banner).toContain('(DELAYED), + up to 40 ms jitter');
    expect(banner).toContain('bank calls: at most 4 in flight, 2.5/s');
    expect(banner).toContain(
      'sweeps: batches of 50, 3 movements at a time, at most 2000 ms apart, sooner when a movement falls due',
    );
  });

  it('shows the defaults when nothing is set: 10 % jitter, 8 in flight, no rate limit', () => {
    const banner = bannerFor({});
    expect(banner).toContain(
      'polling scaled down for the demo: 1000 ms (CREATED/IN_PROGRESS), > 4000 ms (DELAYED), + up to 100 ms jitter',
    );
    expect(banner).toContain('bank calls: at most 8 in flight, no rate limit');
    expect(banner).toContain('sweeps: batches of 100, 8 movements at a time, at most 1000 ms apart');
  });
});
