import { relative } from 'node:path';
import type { ReconcilerConfig } from './config/reconciler-config';
import type { SandboxMode } from './sandbox/sandbox-mode';

/** What `pnpm start` prints once the admin API listens, against a real bank. */
export function serviceBanner(url: string): string {
  return [
    `giro reconciler listening on ${url}`,
    `  admin API ${url}/admin (Authorization: Bearer $ADMIN_TOKEN) · OpenAPI ${url}/docs · ${url}/health · ${url}/metrics`,
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
}

/**
 * Sandbox mode: where everything is and how to reach it. The generated admin token is printed (it is the
 * only way to learn it); a token from ADMIN_TOKEN is not. No bank credential is ever printed.
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
    `  database          ${config.databaseUrl}`,
    `  admin API         ${url}/admin`,
    `  admin token       ${input.generatedToken ? `${input.adminToken}  (generated: ADMIN_TOKEN is not set)` : 'from ADMIN_TOKEN'}`,
    `  OpenAPI           ${url}/docs`,
    `  health, metrics   ${url}/health, ${url}/metrics`,
    `  JSON logs         ${input.logFile}`,
    `  ${polling}`,
    ...workSettings(config),
    '',
    `  try: curl -H "Authorization: Bearer ${input.generatedToken ? input.adminToken : '$ADMIN_TOKEN'}" ${url}/admin/transfers`,
    `       curl --cacert ${here(certs.ca)} --cert ${here(certs.clientCert)} --key ${here(certs.clientKey)} ${sandbox.bank.url}/__sandbox/counters`,
    '',
  ].join('\n');
}

/** The bank-call budget and the sweep settings, as far as the configuration gives them. */
function workSettings(config: ReconcilerConfig): string[] {
  const lines: string[] = [];
  if (config.bankCalls) {
    const rate = config.bankCalls.ratePerSecond === undefined ? 'no rate limit' : `${config.bankCalls.ratePerSecond}/s`;
    lines.push(`  bank calls: at most ${config.bankCalls.maxInFlight} in flight, ${rate}`);
  }
  const batches = config.sweep
    ? `batches of ${config.sweep.batchSize}, ${config.sweep.concurrency} movements at a time, `
    : '';
  lines.push(`  sweeps: ${batches}at most ${config.sweepIntervalMs} ms apart, sooner when a movement falls due`);
  return lines;
}
