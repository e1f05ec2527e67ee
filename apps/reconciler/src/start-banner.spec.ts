import { certificatePaths, type SandboxBank } from '@giro/sandbox-bank';
import type { BankClientOptions } from '@giro/transfer-module';
import { reconcilerConfigFromEnv } from './config/reconciler-config';
import type { SandboxMode } from './sandbox/sandbox-mode';
import { sandboxBanner, serviceBanner } from './start-banner';

const sandbox: SandboxMode = {
  bank: { url: 'https://127.0.0.1:8443' } as SandboxBank,
  clientOptions: {} as BankClientOptions,
  certificates: certificatePaths('certs'),
};

function bannerInput(env: Record<string, string> = {}) {
  return {
    url: 'http://localhost:3000',
    adminToken: 'generated-admin-token',
    generatedToken: true,
    sandbox,
    config: reconcilerConfigFromEnv(env),
    logFile: 'data/reconciler.log',
  };
}

function bannerFor(env: Record<string, string>): string {
  return sandboxBanner(bannerInput(env));
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
    expect(banner).toContain('bank calls: at most 8 in flight, no rate limit\n');
    expect(banner).toContain('sweeps: batches of 100, 8 movements at a time, at most 1000 ms apart');
  });

  it("shows the console's address and the demo's key to sign in with", () => {
    const banner = sandboxBanner({
      url: 'http://localhost:3000',
      adminToken: 'generated-admin-token',
      generatedToken: true,
      sandbox,
      config: reconcilerConfigFromEnv({}),
      logFile: 'data/reconciler.log',
      consoleKey: { name: 'console-demo-20261124085339123', key: 'giro_0123456789abcdef_secret' },
    });
    expect(banner).toContain('  console           http://localhost:3000/console\n');
    expect(banner).toContain(
      '  console key       giro_0123456789abcdef_secret  (operator "console-demo-20261124085339123", made now; paste it to sign in)',
    );
  });

  it('says where the audit key comes from, never the key', () => {
    const banner = (auditKey: Parameters<typeof sandboxBanner>[0]['auditKey']) =>
      sandboxBanner({ ...bannerInput(), auditKey });
    expect(banner({ source: 'sandbox', file: 'data/audit-hmac.key', generated: true })).toContain(
      '  audit key         data/audit-hmac.key (generated now: AUDIT_HMAC_KEY is not set; giro-reconciler audit verify reads it there)',
    );
    expect(banner({ source: 'sandbox', file: 'data/audit-hmac.key', generated: false })).toContain(
      'data/audit-hmac.key (generated at an earlier start: AUDIT_HMAC_KEY is not set;',
    );
    expect(banner({ source: 'environment' })).toContain('  audit key         from AUDIT_HMAC_KEY\n');
  });

  it('says when the certificates expire, and where the encryption key comes from, never showing it', () => {
    const banner = sandboxBanner({
      url: 'http://localhost:3000',
      adminToken: 'generated-admin-token',
      generatedToken: true,
      sandbox,
      config: reconcilerConfigFromEnv({}),
      logFile: 'data/reconciler.log',
      certificates: { client: new Date('2027-01-02T03:04:05Z'), ca: new Date('2028-01-01T00:00:00Z') },
      encryptionKey: { file: 'data/sandbox-encryption.key', made: true },
    });
    expect(banner).toContain(
      '  certificates      client valid until 2027-01-02T03:04:05.000Z, bank CA until 2028-01-01T00:00:00.000Z; /health/ready warns 14 days before; reloaded on SIGHUP and when the files change',
    );
    expect(banner).toContain(
      '  encryption key    webhook secrets stored encrypted (AES-256-GCM), key generated for the sandbox (ENCRYPTION_KEY is not set), kept in data/sandbox-encryption.key, made now: a real bank requires ENCRYPTION_KEY',
    );
  });

  it('says the replicas share the budget on Postgres', () => {
    const banner = bannerFor({ DATABASE_URL: 'postgres://giro@db.internal:5432/giro' });
    expect(banner).toContain('bank calls: at most 8 in flight, no rate limit, shared by the replicas on this database');
  });
});

describe('the banners show what a transfer must be to be sent', () => {
  it('shows the transfer rules, the source accounts and PSP mode in force, and no secret', () => {
    const config = reconcilerConfigFromEnv({
      ADMIN_TOKEN: 'admin-token-not-shown',
      SOURCE_ACCOUNTS: '0000003110000000000175:30712345671,2850590940090418135201:20123456786',
      PSP_MODE: 'true',
      TRANSFER_CURRENCIES: '032,840',
      TRANSFER_CONCEPTS: 'VAR,ALQ',
      TRANSFER_MAX_AMOUNT: '5000.00',
      TRANSFER_MAX_DESCRIPTION_LENGTH: '60',
      APPROVAL_REQUIRED_ABOVE: '1000',
      APPROVAL_EXPIRES_AFTER: '12h',
    });
    const banner = serviceBanner('http://127.0.0.1:3000', config);
    expect(banner).toContain('  console http://127.0.0.1:3000/console (sign in with an API key');
    expect(banner).toContain(
      "  approvals         transfers above 1000.00 wait for an approver (another person's key than their creator's), at most 12 h",
    );
    expect(banner).toContain(
      '  transfer rules    currencies 032, 840 · concepts VAR, ALQ · amount up to 5000.00 · description up to 60 characters',
    );
    expect(banner).toContain(
      '  source accounts   0000003110000000000175 (holder 30712345671), 2850590940090418135201 (holder 20123456786)',
    );
    expect(banner).toContain(
      "  PSP mode          on: also from the clients' sub-accounts registered at /admin/sub-accounts",
    );
    expect(banner).not.toContain('admin-token-not-shown');
  });

  it("shows the module's defaults and PSP mode off when nothing is set; sandbox mode, the demo's account", () => {
    const banner = bannerFor({});
    expect(banner).toContain(
      '  transfer rules    currencies 032 · concepts VAR, ALQ, CUO, EXP, FAC, PRE, SEG, HON, HAB · amount up to 999999999999.99 · description up to 100 characters',
    );
    expect(banner).toMatch(/ {2}source accounts {3}\d{22} \(holder \d{11}\)\n/);
    expect(banner).toContain('  PSP mode          off: only from the source accounts');
    expect(banner).toContain('  approvals         off: every transfer is sent at once');
  });
});
