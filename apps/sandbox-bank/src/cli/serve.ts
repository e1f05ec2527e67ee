import { resolve } from 'node:path';
import { ensureCertificateFiles, readCertificateFiles } from '../certs/certificate-files';
import { sandboxOptionsFromEnv } from '../config/options-from-env';
import { applyConfigPatch, DEFAULT_SANDBOX_CONFIG, type HmacScheme } from '../config/sandbox-config';
import { startSandboxBank } from '../sandbox-bank';

/** The event of the last line printed once the bank accepts requests: `{"event":"sandbox-bank-ready","url":…}`. */
const READY_EVENT = 'sandbox-bank-ready';

/**
 * `giro-sandbox-bank` (`pnpm sandbox` in the repository): the sandbox bank on https://127.0.0.1:8443 (SANDBOX_PORT) with the development
 * certificates of ./certs (made first when missing or expiring). Stops cleanly on SIGTERM and SIGINT.
 */
export async function serve(): Promise<void> {
  const options = sandboxOptionsFromEnv(process.env);
  const certsDir = resolve('certs');
  const certificates = await ensureCertificateFiles(certsDir);
  if (certificates.renewedBecause) {
    console.log(`certificates written to ${certsDir} (${certificates.renewedBecause})`);
  }
  const pems = readCertificateFiles(certificates.paths);
  const bank = await startSandboxBank({
    tls: { cert: pems.serverCert, key: pems.serverKey, ca: pems.ca },
    port: options.port,
    host: options.host,
    credentials: options.credentials,
    config: options.config,
  });

  const source = (name: string) => (process.env[name] === undefined ? `${name} (default)` : `${name} (set)`);
  const { paths } = certificates;
  console.log(
    [
      `sandbox bank listening on ${bank.url} (mutual TLS required)`,
      `  client certificate ${paths.clientCert}, key ${paths.clientKey}, CA ${paths.ca}`,
      `  access token: the static token in ${source('SANDBOX_TOKEN')}, or POST ${bank.url}/oauth/token with ${source('SANDBOX_CLIENT_ID')} / ${source('SANDBOX_CLIENT_SECRET')}`,
      `  HMAC secret: ${source('SANDBOX_HMAC_SECRET')}; control surface: ${bank.url}/__sandbox/`,
      `  HMAC scheme: ${describeHmacScheme(options.config.hmac)}`,
    ].join('\n'),
  );
  console.log(JSON.stringify({ event: READY_EVENT, url: bank.url }));

  const stop = (signal: NodeJS.Signals) => {
    bank.close().then(
      () => console.log(`sandbox bank stopped (${signal})`),
      (error: unknown) => {
        console.error('sandbox bank: error while stopping', error);
        process.exitCode = 1;
      },
    );
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

/** The HMAC scheme the API requires, as a client must configure it (SANDBOX_HMAC_*); the key id is not a secret. */
function describeHmacScheme(patch: Partial<HmacScheme> | undefined): string {
  const checked = applyConfigPatch(DEFAULT_SANDBOX_CONFIG, { hmac: patch ?? {} });
  const scheme = checked.ok ? checked.config.hmac : DEFAULT_SANDBOX_CONFIG.hmac;
  const keyId = scheme.keyId === null ? 'key ids not checked' : `key id ${scheme.keyId} required`;
  return scheme.preset === 'single-header'
    ? `single-header (${scheme.signatureHeader}: keyId=…,ts=…,sig=…), ${keyId}`
    : `default (${scheme.timestampHeader}, ${scheme.signatureHeader}, ${scheme.keyIdHeader}), ${keyId}`;
}
