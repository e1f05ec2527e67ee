import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { isIPv6 } from 'node:net';
import { resolve } from 'node:path';
import { ApiKeyService, MovementService, TransferService, WebhookService } from '@giro/transfer-module';
import { BankClient } from '@giro/transfer-module/bank';
import pino from 'pino';
import { certificateExpiries } from '../certificates/certificate-expiry';
import { pollingFloorWarning } from '../config/polling-floor';
import { ConfigError, reconcilerConfigFromEnv } from '../config/reconciler-config';
import type { ServerSettings } from '../config/server-environment';
import { freshDemoOperatorKey } from '../demo/demo-operator-key';
import { type DemoReceiver, startDemoReceiver } from '../demo/demo-receiver';
import { runDemo } from '../demo/demo-run';
import { startTracing } from '../ops/tracing';
import { createReconcilerApp } from '../reconciler-app';
import { SANDBOX_AUDIT_KEY_FILE, sandboxAuditKey } from '../sandbox/sandbox-audit-key';
import { SANDBOX_ENCRYPTION_KEY_FILE, sandboxEncryptionKey } from '../sandbox/sandbox-encryption-key';
import { prepareSandboxLedgerFile } from '../sandbox/sandbox-ledger-file';
import { type SandboxMode, startSandboxMode } from '../sandbox/sandbox-mode';
import { sandboxBanner, serviceBanner } from '../start-banner';

/** Where sandbox mode sends the JSON logs, so they do not tear the progress display apart. */
const SANDBOX_LOG_FILE = 'data/reconciler.log';

/**
 * `giro-reconciler` (`pnpm start` in the repository): the reconciler. With BANK_BASE_URL unset (sandbox mode) it also starts the sandbox bank,
 * submits the demo batch and shows it moving. Stops cleanly on SIGTERM and SIGINT: no new sweep or bank
 * call, the calls in flight finish, every lease is released, the pools are closed.
 */
export async function run(): Promise<void> {
  if (existsSync('.env')) process.loadEnvFile('.env');
  const configured = reconcilerConfigFromEnv(process.env);
  // Only sandbox mode may start without ENCRYPTION_KEY (the configuration requires it with a bank).
  const sandboxKey =
    configured.encryptionKey === undefined ? sandboxEncryptionKey(resolve(SANDBOX_ENCRYPTION_KEY_FILE)) : undefined;
  const config = sandboxKey ? { ...configured, encryptionKey: sandboxKey.key } : configured;
  const belowSpec = config.bank === undefined ? undefined : pollingFloorWarning(config.polling);
  if (belowSpec !== undefined) console.warn(belowSpec);

  // Before the application is built, so that its first request is traced.
  const stopTracing = await startTracing(process.env);
  let sandbox: SandboxMode | undefined;
  if (config.bank === undefined) {
    const ledgerFile = prepareSandboxLedgerFile(config.databaseUrl);
    sandbox = await startSandboxMode(process.env, resolve('certs'), config.polling, ledgerFile);
  }
  const adminToken = config.adminToken ?? randomBytes(24).toString('base64url');
  // Sandbox mode keeps a key of its own when AUDIT_HMAC_KEY is unset (required with a bank: the config says so).
  const keptAuditKey = config.auditHmacKey === undefined && sandbox ? sandboxAuditKey() : undefined;
  const app = await createReconcilerApp({
    config: { ...config, auditHmacKey: config.auditHmacKey ?? keptAuditKey?.key },
    bank: config.bank ?? (sandbox as SandboxMode).clientOptions,
    adminToken,
    // Opened at once (`sync`): a start that fails right away exits with the file ready to be flushed.
    ...(sandbox && { logDestination: pino.destination({ dest: resolve(SANDBOX_LOG_FILE), mkdir: true, sync: true }) }),
  });
  const demo = new AbortController();
  let receiver: DemoReceiver | undefined;
  const stop = once(async (signal: NodeJS.Signals) => {
    console.log(`\n${signal}: stopping (no new sweep or bank call; calls in flight finish; leases released)`);
    demo.abort();
    try {
      await app.close();
    } finally {
      // Whatever the app's close met, nothing else of this process is left open.
      await receiver?.close();
      await sandbox?.bank.close();
      // Last: the spans of the calls that finished while stopping are exported too.
      await stopTracing?.();
    }
    console.log('reconciler stopped');
  });
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      stop(signal).catch((error: unknown) => {
        console.error('error while stopping', error);
        process.exitCode = 1;
      });
    });
  }

  await listen(app, config.port, config.server.host);
  const url = serverUrl(config.server, addressPort(app.getHttpServer().address()));
  const certificates = certificateExpiries(app.get(BankClient).tlsMaterial());
  if (!sandbox) {
    console.log(serviceBanner(url, config, certificates));
    console.log(JSON.stringify({ event: 'reconciler-ready', url }));
    return;
  }
  // Registered before the batch is submitted, so that every change of the batch is delivered to it.
  receiver = await startDemoReceiver(app.get(WebhookService));
  const consoleKey = await freshDemoOperatorKey(app.get(ApiKeyService));
  console.log(
    sandboxBanner({
      url,
      adminToken,
      generatedToken: config.adminToken === undefined,
      sandbox,
      config,
      logFile: SANDBOX_LOG_FILE,
      webhookReceiver: { url: receiver.url, endpointId: receiver.endpointId },
      consoleKey,
      auditKey: keptAuditKey
        ? { source: 'sandbox', file: SANDBOX_AUDIT_KEY_FILE, generated: keptAuditKey.generated }
        : { source: 'environment' },
      certificates,
      encryptionKey: sandboxKey ? { file: SANDBOX_ENCRYPTION_KEY_FILE, made: sandboxKey.made } : 'from ENCRYPTION_KEY',
    }),
  );
  console.log(JSON.stringify({ event: 'reconciler-ready', url, sandboxBankUrl: sandbox.bank.url }));
  await runDemo({ transfers: app.get(TransferService), movements: app.get(MovementService) }, process.stdout, {
    signal: demo.signal,
    webhooks: receiver,
  }).catch((error: unknown) => {
    // A demo cut short by a shutdown is not an error.
    if (!demo.signal.aborted) throw error;
  });
}

async function listen(app: Awaited<ReturnType<typeof createReconcilerApp>>, port: number, host: string): Promise<void> {
  try {
    await app.listen(port, host);
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code !== 'EADDRINUSE' && code !== 'EADDRNOTAVAIL' && code !== 'ENOTFOUND') throw error;
    await app.close();
    throw new ConfigError([
      code === 'EADDRINUSE'
        ? `PORT ${port} is already in use: stop the other process or set PORT to a free port`
        : 'HOST is not an address of this machine: set HOST to one of its addresses, or 0.0.0.0 for every interface',
    ]);
  }
}

/** Where the server can be reached from this machine (`localhost` when it listens on every interface). */
function serverUrl(server: ServerSettings, port: number): string {
  const everywhere = server.host === '0.0.0.0' || server.host === '::';
  const host = everywhere ? 'localhost' : isIPv6(server.host) ? `[${server.host}]` : server.host;
  return `${server.tls ? 'https' : 'http'}://${host}:${port}`;
}

function addressPort(address: unknown): number {
  return typeof address === 'object' && address !== null ? (address as { port: number }).port : 0;
}

function once<T>(run: (arg: T) => Promise<void>): (arg: T) => Promise<void> {
  let running: Promise<void> | undefined;
  return (arg) => {
    running ??= run(arg);
    return running;
  };
}
