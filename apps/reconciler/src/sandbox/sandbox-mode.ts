import type { CertificatePaths, SandboxBank, SandboxConfigPatch } from '@giro/sandbox-bank';
import { type BankClientOptions, secret } from '@giro/transfer-module';
import type { PollingSettings } from '../config/reconciler-config';

/**
 * Sandbox timings for the demo: a plain transfer completes 3 s after creation and `[delay]` stays DELAYED
 * for 6 s, so the whole batch settles in well under a minute. SANDBOX_* variables still override them.
 */
export const DEMO_TIMINGS = { createdMs: 1_000, inProgressMs: 2_000, delayedMs: 6_000 } as const;

export interface SandboxMode {
  bank: SandboxBank;
  /** How the reconciler reaches the sandbox: its URL, the development client certificate, its credentials. */
  clientOptions: BankClientOptions;
  certificates: CertificatePaths;
  /** Set when the development certificates were (re)made at this start. */
  certificatesRenewedBecause?: string;
}

/** The sandbox bank could not start; the message says what to change. */
export class SandboxStartError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SandboxStartError';
  }
}

/** The sandbox bank package is an optional peer of the reconciler: loaded only in sandbox mode. */
async function loadSandboxBankPackage(): Promise<typeof import('@giro/sandbox-bank')> {
  try {
    return await import('@giro/sandbox-bank');
  } catch (error) {
    const missing =
      (error as { code?: string }).code === 'MODULE_NOT_FOUND' && String(error).includes("'@giro/sandbox-bank'");
    if (!missing) throw error;
    throw new SandboxStartError(
      'sandbox mode (BANK_BASE_URL unset) needs the @giro/sandbox-bank package: set BANK_BASE_URL to your bank, or install @giro/sandbox-bank',
    );
  }
}

/**
 * Sandbox mode (BANK_BASE_URL unset): makes the development certificates in `certsDir` when missing or
 * expiring, starts the sandbox bank in this process (SANDBOX_* variables apply, as for `pnpm sandbox`),
 * and returns the bank client options pointing at it. The sandbox audits lookups against the reconciler's
 * own polling rule, and keeps its ledger in `ledgerFile` when given (prepareSandboxLedgerFile).
 */
export async function startSandboxMode(
  env: Record<string, string | undefined>,
  certsDir: string,
  polling: PollingSettings,
  ledgerFile?: string,
): Promise<SandboxMode> {
  const {
    DEFAULT_SANDBOX_CREDENTIALS,
    DUPLICATE_ORIGIN_ID,
    ensureCertificateFiles,
    readCertificateFiles,
    sandboxOptionsFromEnv,
    startSandboxBank,
  } = await loadSandboxBankPackage();
  const options = sandboxOptionsFromEnv(env);
  const ensured = await ensureCertificateFiles(certsDir);
  const pems = readCertificateFiles(ensured.paths);
  const config: SandboxConfigPatch = {
    ...options.config,
    timings: { ...DEMO_TIMINGS, ...options.config.timings },
    polling: {
      minIntervalMs: polling.minIntervalMs,
      delayedMinIntervalMs: polling.delayedMinIntervalMs,
      ...options.config.polling,
    },
  };
  let bank: SandboxBank;
  try {
    bank = await startSandboxBank({
      tls: { cert: pems.serverCert, key: pems.serverKey, ca: pems.ca },
      port: options.port,
      host: options.host,
      credentials: options.credentials,
      config,
      ...(ledgerFile !== undefined && { ledgerFile }),
    });
  } catch (error) {
    if ((error as { code?: string }).code !== 'EADDRINUSE') throw error;
    throw new SandboxStartError(
      `the sandbox bank could not listen on ${options.host}:${options.port} (already in use — is \`pnpm sandbox\` or another reconciler running?); set SANDBOX_PORT to another port, or 0 for any free port`,
    );
  }

  const credentials = { ...DEFAULT_SANDBOX_CREDENTIALS, ...options.credentials };
  const clientOptions: BankClientOptions = {
    baseUrl: bank.url,
    tls: { caFile: ensured.paths.ca, certFile: ensured.paths.clientCert, keyFile: ensured.paths.clientKey },
    auth: { scheme: credentials.authScheme, token: secret(credentials.token) },
    hmac: { secret: secret(credentials.hmacSecret) },
    duplicateCodes: [DUPLICATE_ORIGIN_ID],
  };
  return {
    bank,
    clientOptions,
    certificates: ensured.paths,
    ...(ensured.renewedBecause !== undefined && { certificatesRenewedBecause: ensured.renewedBecause }),
  };
}
