import { createPrivateKey, X509Certificate } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createDevCertificates } from './dev-certificates';

/** The files `pnpm certs` writes, by role. */
export const CERTIFICATE_FILE_NAMES = {
  ca: 'ca.pem',
  serverCert: 'server.pem',
  serverKey: 'server-key.pem',
  clientCert: 'client.pem',
  clientKey: 'client-key.pem',
} as const;

export type CertificateRole = keyof typeof CERTIFICATE_FILE_NAMES;
export type CertificatePaths = Record<CertificateRole, string>;
export type CertificatePems = Record<CertificateRole, string>;

export const RENEW_WITHIN_DAYS = 30;
const DAY_MS = 86_400_000;
const KEY_ROLES: readonly CertificateRole[] = ['serverKey', 'clientKey'];

export function certificatePaths(dir: string): CertificatePaths {
  const entries = Object.entries(CERTIFICATE_FILE_NAMES).map(([role, name]) => [role, join(dir, name)]);
  return Object.fromEntries(entries) as CertificatePaths;
}

export function readCertificateFiles(paths: CertificatePaths): CertificatePems {
  const entries = Object.entries(paths).map(([role, path]) => [role, readFileSync(path, 'utf8')]);
  return Object.fromEntries(entries) as CertificatePems;
}

export interface EnsuredCertificates {
  paths: CertificatePaths;
  /** Why the files were (re)written; undefined when the existing ones were kept. */
  renewedBecause?: string;
}

/**
 * Makes sure `dir` holds a usable development CA, server and client certificate: writes a new set when
 * a file is missing or unreadable, a certificate expires within RENEW_WITHIN_DAYS, a leaf is not signed
 * by the CA, or a key does not match its certificate. Key files are written with mode 0600.
 */
export async function ensureCertificateFiles(dir: string, now: Date = new Date()): Promise<EnsuredCertificates> {
  const paths = certificatePaths(dir);
  const problem = whyUnusable(paths, now);
  if (problem === undefined) return { paths };

  const certs = await createDevCertificates();
  const pems: CertificatePems = {
    ca: certs.ca.cert,
    serverCert: certs.server.cert,
    serverKey: certs.server.key,
    clientCert: certs.client.cert,
    clientKey: certs.client.key,
  };
  mkdirSync(dir, { recursive: true });
  for (const [role, pem] of Object.entries(pems) as [CertificateRole, string][]) {
    const mode = KEY_ROLES.includes(role) ? 0o600 : 0o644;
    writeFileSync(paths[role], pem, { mode });
    chmodSync(paths[role], mode);
  }
  return { paths, renewedBecause: problem };
}

function whyUnusable(paths: CertificatePaths, now: Date): string | undefined {
  const missing = Object.values(paths).filter((path) => !existsSync(path));
  if (missing.length) return `missing ${missing.map((path) => path.split(/[\\/]/).pop()).join(', ')}`;
  try {
    const pems = readCertificateFiles(paths);
    const ca = new X509Certificate(pems.ca);
    const leaves = [
      { name: CERTIFICATE_FILE_NAMES.serverCert, cert: new X509Certificate(pems.serverCert), key: pems.serverKey },
      { name: CERTIFICATE_FILE_NAMES.clientCert, cert: new X509Certificate(pems.clientCert), key: pems.clientKey },
    ];
    const renewBefore = now.getTime() + RENEW_WITHIN_DAYS * DAY_MS;
    for (const { name, cert } of [{ name: CERTIFICATE_FILE_NAMES.ca, cert: ca }, ...leaves]) {
      if (new Date(cert.validTo).getTime() < renewBefore) {
        return `${name} expires within ${RENEW_WITHIN_DAYS} days (${new Date(cert.validTo).toISOString()})`;
      }
    }
    for (const { name, cert, key } of leaves) {
      if (!cert.verify(ca.publicKey)) return `${name} is not signed by ${CERTIFICATE_FILE_NAMES.ca}`;
      if (!cert.checkPrivateKey(createPrivateKey(key))) return `the key of ${name} does not match it`;
    }
    return undefined;
  } catch (error) {
    return `unreadable certificate files (${error instanceof Error ? error.message : String(error)})`;
  }
}
