import { relative } from 'node:path';
import { ApprovalPolicy, DEFAULT_MAX_AMOUNT, dataSourceOptionsFromUrl, transferLimitsOf } from '@giro/transfer-module';
import { engineCapabilitiesOf } from '@giro/transfer-module/persistence';
import type { CertificateExpiries } from './certificates/certificate-expiry';
import type { ReconcilerConfig } from './config/reconciler-config';
import type { SandboxMode } from './sandbox/sandbox-mode';

/**
 * What `pnpm start` prints once the admin API listens, against a real bank: where to reach it, and what it
 * accepts to send (the transfer rules, the accounts it sends from, PSP mode). Nothing secret: no token, key,
 * passphrase or HMAC secret, only account numbers and their holders' CUITs.
 */
export function serviceBanner(url: string, config: ReconcilerConfig, certificates?: CertificateExpiries): string {
  return [
    `giro reconciler listening on ${url}`,
    `  admin API ${url}/admin (Authorization: Bearer $ADMIN_TOKEN) · OpenAPI ${url}/docs · ${url}/health · ${url}/metrics`,
    `  console ${url}/console (sign in with an API key: giro-reconciler keys create --name <name> --role operator)`,
    ...(certificates ? [certificatesLine(certificates, config)] : []),
    '  secrets at rest   webhook secrets stored encrypted (AES-256-GCM) with ENCRYPTION_KEY',
    ...sendingSettings(config),
  ].join('\n');
}

export interface SandboxBannerInput {
  url: string;
  adminToken: string;
  /** True when ADMIN_TOKEN was unset and the token was made at this start. */
  generatedToken: boolean;
  sandbox: SandboxMode;
  config: ReconcilerConfig;
  logFile: string;
  /** The demo's webhook receiver and the endpoint registered for it. */
  webhookReceiver?: { url: string; endpointId: string };
  /** The operator key made at this start to sign in to the console with (demo/demo-operator-key.ts). */
  consoleKey?: { name: string; key: string };
  /**
   * Where the audit trail's key comes from: AUDIT_HMAC_KEY, or the file sandbox mode keeps it in (made at this
   * start, or at an earlier one).
   */
  auditKey?: { source: 'environment' } | { source: 'sandbox'; file: string; generated: boolean };
  /** When the certificates in use expire. */
  certificates?: CertificateExpiries;
  /** Where the key the stored secrets are sealed with comes from: ENCRYPTION_KEY, or the file sandbox mode keeps. */
  encryptionKey?: 'from ENCRYPTION_KEY' | { file: string; made: boolean };
}

/**
 * Sandbox mode: where everything is and how to reach it. The generated admin token is printed (it is the
 * only way to learn it); a token from ADMIN_TOKEN is not; nor is the audit key, only the file sandbox mode keeps it in; the demo's console key is (a sandbox's operator key, made
 * for this start, revoked at the next). No bank credential is ever printed.
 */
export function sandboxBanner(input: SandboxBannerInput): string {
  const { url, sandbox, config } = input;
  const certs = sandbox.certificates;
  const here = (path: string) => relative(process.cwd(), path) || path;
  const jitter = config.polling.maxJitterMs === undefined ? '' : `, + up to ${config.polling.maxJitterMs} ms jitter`;
  const polling = config.polling.scaledForDemo
    ? `polling scaled down for the demo: ${config.polling.minIntervalMs} ms (CREATED/IN_PROGRESS), > ${config.polling.delayedMinIntervalMs} ms (DELAYED)${jitter} — the spec's 5 s and 10 min apply with a real bank`
    : `polling: ${config.polling.minIntervalMs} ms (CREATED/IN_PROGRESS), > ${config.polling.delayedMinIntervalMs} ms (DELAYED)${jitter}`;
  return [
    '',
    'giro reconciler — SANDBOX MODE (BANK_BASE_URL is not set)',
    `  sandbox bank      ${sandbox.bank.url} (mutual TLS; control surface ${sandbox.bank.url}/__sandbox/)`,
    `  certificates      ${here(certs.ca)}, ${here(certs.clientCert)}, ${here(certs.clientKey)}${sandbox.certificatesRenewedBecause ? ` (made now: ${sandbox.certificatesRenewedBecause})` : ''}`,
    ...(input.certificates ? [certificatesLine(input.certificates, config)] : []),
    `  database          ${config.databaseUrl}`,
    ...(input.encryptionKey ? [encryptionKeyLine(input.encryptionKey)] : []),
    `  admin API         ${url}/admin`,
    `  console           ${url}/console`,
    ...(input.consoleKey
      ? [
          `  console key       ${input.consoleKey.key}  (operator "${input.consoleKey.name}", made now; paste it to sign in)`,
        ]
      : []),
    `  admin token       ${input.generatedToken ? `${input.adminToken}  (generated at this start: set ADMIN_TOKEN to keep one)` : 'from ADMIN_TOKEN'}`,
    ...(input.auditKey ? [`  audit key         ${auditKeyLine(input.auditKey)}`] : []),
    `  OpenAPI           ${url}/docs`,
    `  health, metrics   ${url}/health, ${url}/metrics`,
    `  JSON logs         ${input.logFile}`,
    ...(input.webhookReceiver
      ? [
          `  webhooks          ${input.webhookReceiver.url} — the demo's receiver (endpoint ${input.webhookReceiver.endpointId}), verifying each event with standardwebhooks`,
        ]
      : []),
    ...sendingSettings(config),
    `  ${polling}`,
    ...workSettings(config),
    '',
    `  try: curl -H "Authorization: Bearer ${input.generatedToken ? input.adminToken : '$ADMIN_TOKEN'}" ${url}/admin/transfers`,
    `       curl --cacert ${here(certs.ca)} --cert ${here(certs.clientCert)} --key ${here(certs.clientKey)} ${sandbox.bank.url}/__sandbox/counters`,
    '',
  ].join('\n');
}

function auditKeyLine(auditKey: NonNullable<SandboxBannerInput['auditKey']>): string {
  if (auditKey.source === 'environment') return 'from AUDIT_HMAC_KEY';
  const made = auditKey.generated ? 'generated now' : 'generated at an earlier start';
  return `${auditKey.file} (${made}: AUDIT_HMAC_KEY is not set; giro-reconciler audit verify reads it there)`;
}

function encryptionKeyLine(source: NonNullable<SandboxBannerInput['encryptionKey']>): string {
  const where =
    typeof source === 'string'
      ? source
      : `generated for the sandbox (ENCRYPTION_KEY is not set), kept in ${source.file}${source.made ? ', made now' : ''}: a real bank requires ENCRYPTION_KEY`;
  return `  encryption key    webhook secrets stored encrypted (AES-256-GCM), key ${where}`;
}

/** When the bank certificates expire, when readiness starts warning, and how a renewed one is taken up. */
function certificatesLine(certificates: CertificateExpiries, config: ReconcilerConfig): string {
  const ca = certificates.ca ? `, bank CA until ${certificates.ca.toISOString()}` : '';
  const days = config.certificateWarningDays;
  const warning = days === undefined ? '' : `; /health/ready warns ${days} days before`;
  return `  certificates      client valid until ${certificates.client.toISOString()}${ca}${warning}; reloaded on SIGHUP and when the files change`;
}

/**
 * What a transfer request must be to be sent: the transfer rules in force (TRANSFER_*, else the module's
 * defaults), the source accounts `from` must be one of (SOURCE_ACCOUNTS), and whether PSP mode lets the
 * entity send from its clients' registered sub-accounts (PSP_MODE).
 */
function sendingSettings(config: ReconcilerConfig): string[] {
  const limits = transferLimitsOf(config.transferRules);
  const accounts = config.sourceAccounts;
  const sources =
    accounts === undefined || accounts.length === 0
      ? 'any (SOURCE_ACCOUNTS is not set: `from` is not checked)'
      : accounts.map((account) => `${account.address} (holder ${account.ownerPersonId})`).join(', ');
  return [
    `  transfer rules    currencies ${limits.currencies.join(', ')} · concepts ${limits.concepts.join(', ')} · amount up to ${limits.maxAmount ?? DEFAULT_MAX_AMOUNT} · description up to ${limits.maxDescriptionLength} characters`,
    `  source accounts   ${sources}`,
    `  PSP mode          ${config.psp ? "on: also from the clients' sub-accounts registered at /admin/sub-accounts" : "off: only from the source accounts (PSP_MODE=true to send from clients' sub-accounts)"}`,
    `  approvals         ${approvalsLine(config)}`,
  ];
}

function approvalsLine(config: ReconcilerConfig): string {
  if (config.approvals === undefined)
    return 'off: every transfer is sent at once (APPROVAL_REQUIRED_ABOVE to require one)';
  const policy = ApprovalPolicy.from(config.approvals);
  const hours = policy.expiresAfterMs / 3_600_000;
  return `transfers above ${policy.requiredAbove} wait for an approver (another person's key than their creator's), at most ${hours} h`;
}

/** The bank-call budget and the sweep settings, as far as the configuration gives them. */
function workSettings(config: ReconcilerConfig): string[] {
  const lines: string[] = [];
  if (config.bankCalls) {
    const rate = config.bankCalls.ratePerSecond === undefined ? 'no rate limit' : `${config.bankCalls.ratePerSecond}/s`;
    // Where replicas share the database (Postgres), they share these limits (a heartbeat each, 1/N each).
    const engine = engineCapabilitiesOf(dataSourceOptionsFromUrl(config.databaseUrl));
    const shared = engine?.sharedByReplicas ? ', shared by the replicas on this database' : '';
    lines.push(`  bank calls: at most ${config.bankCalls.maxInFlight} in flight, ${rate}${shared}`);
  }
  const batches = config.sweep
    ? `batches of ${config.sweep.batchSize}, ${config.sweep.concurrency} movements at a time, `
    : '';
  lines.push(`  sweeps: ${batches}at most ${config.sweepIntervalMs} ms apart, sooner when a movement falls due`);
  return lines;
}
