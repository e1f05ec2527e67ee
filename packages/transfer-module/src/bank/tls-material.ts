import { createPrivateKey, type KeyObject, X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { checkKnownKeys, checkObject, checkOptionalString, checkString, fail } from './option-checks';
import { Secret, type SecretInput, toSecret } from './secret';

/**
 * Mutual TLS with the bank. Each PEM is given inline or as a file (read once, at construction). There is
 * deliberately no way to turn certificate verification off.
 */
export interface BankTlsOptions {
  /** CA certificate(s) for the bank's server certificate, PEM. Default: Node's trusted roots. */
  ca?: string;
  caFile?: string;
  /** Our client certificate, PEM. */
  cert?: string;
  certFile?: string;
  /** Our private key, PEM (encrypted when `passphrase` is set). */
  key?: SecretInput;
  keyFile?: string;
  passphrase?: SecretInput;
  /** Name to verify the server certificate against (and send as SNI), when not the base URL's host. */
  servername?: string;
}

export interface TlsMaterial {
  ca?: string;
  cert: string;
  key: Secret;
  passphrase?: Secret;
  servername?: string;
}

const TLS_KEYS = ['ca', 'caFile', 'cert', 'certFile', 'key', 'keyFile', 'passphrase', 'servername'] as const;

export function resolveTlsMaterial(input: unknown, name: string): TlsMaterial {
  const tls = checkObject(input, name);
  checkKnownKeys(tls, name, TLS_KEYS);
  const ca = pem(tls, 'ca', name, false);
  const cert = pem(tls, 'cert', name, true);
  const key = pem(tls, 'key', name, true);
  if (ca !== undefined) checkCertificates(ca, `${name}.ca`);
  const passphrase =
    tls.passphrase === undefined ? undefined : toSecret(secretInput(tls.passphrase, `${name}.passphrase`));
  const servername = checkOptionalString(tls.servername, `${name}.servername`);
  checkKeyPair(cert, key, passphrase, name);
  return {
    ...(ca !== undefined && { ca }),
    cert,
    key: toSecret(key),
    ...(passphrase !== undefined && { passphrase }),
    ...(servername !== undefined && { servername }),
  };
}

function pem(tls: Record<string, unknown>, field: 'ca' | 'cert' | 'key', name: string, required: true): string;
function pem(
  tls: Record<string, unknown>,
  field: 'ca' | 'cert' | 'key',
  name: string,
  required: false,
): string | undefined;
function pem(
  tls: Record<string, unknown>,
  field: 'ca' | 'cert' | 'key',
  name: string,
  required: boolean,
): string | undefined {
  const inline = tls[field];
  const file = tls[`${field}File`];
  if (inline !== undefined && file !== undefined)
    fail(`${name}.${field}`, `and ${name}.${field}File are exclusive: give one`);
  if (inline !== undefined) {
    return field === 'key' ? secretInput(inline, `${name}.key`) : checkPem(inline, `${name}.${field}`);
  }
  if (file !== undefined) {
    const path = checkString(file, `${name}.${field}File`);
    try {
      return readFileSync(path, 'utf8');
    } catch (error) {
      const code = (error as { code?: string }).code ?? 'unreadable';
      fail(`${name}.${field}File`, `could not be read (${code})`);
    }
  }
  if (required) fail(`${name}.${field}`, `or ${name}.${field}File is required: the bank requires mutual TLS`);
  return undefined;
}

/** Every certificate of a PEM bundle, parsed: a bundle with one unreadable certificate is refused whole. */
export function pemCertificates(bundle: string): X509Certificate[] {
  return (bundle.match(PEM_CERTIFICATE) ?? []).map((block) => new X509Certificate(block));
}

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

function checkCertificates(bundle: string, name: string): void {
  let certificates: X509Certificate[];
  try {
    certificates = pemCertificates(bundle);
  } catch {
    fail(name, 'holds a certificate that is not readable PEM');
  }
  if (certificates.length === 0) fail(name, 'must be PEM certificates');
}

function checkPem(value: unknown, name: string): string {
  if (typeof value !== 'string' || !value.includes('-----BEGIN ')) fail(name, 'must be a PEM string');
  return value;
}

function secretInput(value: unknown, name: string): string {
  if (value instanceof Secret) return value.reveal();
  if (typeof value !== 'string' || value === '') fail(name, 'must be a non-empty string or Secret');
  return value;
}

/** Loads the key (with its passphrase) and checks it belongs to the certificate, so mistakes show at start. */
function checkKeyPair(cert: string, key: string, passphrase: Secret | undefined, name: string): void {
  let certificate: X509Certificate;
  try {
    certificate = new X509Certificate(cert);
  } catch {
    fail(`${name}.cert`, 'is not a readable PEM certificate');
  }
  let privateKey: KeyObject;
  try {
    privateKey = createPrivateKey({ key, format: 'pem', ...(passphrase && { passphrase: passphrase.reveal() }) });
  } catch {
    fail(
      `${name}.key`,
      passphrase
        ? `could not be decrypted with ${name}.passphrase`
        : `could not be read (an encrypted key needs ${name}.passphrase)`,
    );
  }
  if (!certificate.checkPrivateKey(privateKey)) fail(`${name}.key`, `does not belong to ${name}.cert`);
}
