// @peculiar/x509 (through tsyringe) needs the Reflect metadata polyfill loaded before it.
import 'reflect-metadata';
import { createPrivateKey, KeyObject, randomBytes, webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';

x509.cryptoProvider.set(webcrypto as unknown as Parameters<typeof x509.cryptoProvider.set>[0]);

type CryptoKey = webcrypto.CryptoKey;
type CryptoKeyPair = webcrypto.CryptoKeyPair;

const KEY_ALGORITHM = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;
const DAY_MS = 86_400_000;

export interface PemKeyPair {
  /** PEM certificate. */
  cert: string;
  /** PEM private key (PKCS#8); encrypted when a passphrase was given. */
  key: string;
}

export interface CertificateAuthority extends PemKeyPair {
  readonly signingKey: CryptoKey;
  readonly certificate: x509.X509Certificate;
}

export interface IssueOptions {
  commonName: string;
  /** `server` adds the serverAuth usage and the alternative names; `client` adds clientAuth. */
  usage: 'server' | 'client';
  /** DNS names and IP addresses the server certificate is valid for. */
  altNames?: string[];
  validDays?: number;
  /** Encrypts the private key (AES-256-CBC, PKCS#8) with this passphrase. */
  passphrase?: string;
  /** Backdates or postdates validity, for tests of expired certificates. */
  notBefore?: Date;
}

async function newKeyPair(): Promise<CryptoKeyPair> {
  return webcrypto.subtle.generateKey(KEY_ALGORITHM, true, ['sign', 'verify']) as Promise<CryptoKeyPair>;
}

async function exportKey(key: CryptoKey, passphrase?: string): Promise<string> {
  const der = Buffer.from(await webcrypto.subtle.exportKey('pkcs8', key));
  const keyObject: KeyObject = createPrivateKey({ key: der, format: 'der', type: 'pkcs8' });
  return passphrase
    ? (keyObject.export({ format: 'pem', type: 'pkcs8', cipher: 'aes-256-cbc', passphrase }) as string)
    : (keyObject.export({ format: 'pem', type: 'pkcs8' }) as string);
}

const serialNumber = () =>
  randomBytes(16)
    .toString('hex')
    .replace(/^[89a-f]/, '1');

/** A self-signed certificate authority, for development and tests only. */
export async function createCertificateAuthority(
  commonName = 'giro development CA',
  validDays = 825,
): Promise<CertificateAuthority> {
  const keys = await newKeyPair();
  const notBefore = new Date(Date.now() - DAY_MS);
  const certificate = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: serialNumber(),
    name: `CN=${commonName}`,
    notBefore,
    notAfter: new Date(notBefore.getTime() + validDays * DAY_MS),
    keys,
    signingAlgorithm: KEY_ALGORITHM,
    extensions: [
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  });
  return {
    certificate,
    signingKey: keys.privateKey,
    cert: certificate.toString('pem'),
    key: await exportKey(keys.privateKey),
  };
}

const IP_PATTERN = /^(\d{1,3}\.){3}\d{1,3}$|:/;

/** A leaf certificate signed by `ca`. */
export async function issueCertificate(ca: CertificateAuthority, options: IssueOptions): Promise<PemKeyPair> {
  const keys = await newKeyPair();
  const notBefore = options.notBefore ?? new Date(Date.now() - DAY_MS);
  const extensions: x509.Extension[] = [
    new x509.BasicConstraintsExtension(false, undefined, true),
    new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyEncipherment, true),
    new x509.ExtendedKeyUsageExtension([
      options.usage === 'server' ? x509.ExtendedKeyUsage.serverAuth : x509.ExtendedKeyUsage.clientAuth,
    ]),
    await x509.AuthorityKeyIdentifierExtension.create(ca.certificate),
  ];
  if (options.altNames?.length) {
    extensions.push(
      new x509.SubjectAlternativeNameExtension(
        options.altNames.map((value) => ({ type: IP_PATTERN.test(value) ? 'ip' : 'dns', value })),
      ),
    );
  }
  const certificate = await x509.X509CertificateGenerator.create({
    serialNumber: serialNumber(),
    subject: `CN=${options.commonName}`,
    issuer: ca.certificate.subject,
    notBefore,
    notAfter: new Date(notBefore.getTime() + (options.validDays ?? 397) * DAY_MS),
    signingKey: ca.signingKey,
    publicKey: keys.publicKey,
    signingAlgorithm: KEY_ALGORITHM,
    extensions,
  });
  return { cert: certificate.toString('pem'), key: await exportKey(keys.privateKey, options.passphrase) };
}

export interface DevCertificates {
  ca: PemKeyPair;
  server: PemKeyPair;
  client: PemKeyPair;
}

/** A CA, a server certificate for localhost/127.0.0.1/::1 and a client certificate, all in memory. */
export async function createDevCertificates(options: { clientKeyPassphrase?: string } = {}): Promise<DevCertificates> {
  const ca = await createCertificateAuthority();
  const server = await issueCertificate(ca, {
    commonName: 'localhost',
    usage: 'server',
    altNames: ['localhost', '127.0.0.1', '::1'],
  });
  const client = await issueCertificate(ca, {
    commonName: 'giro development client',
    usage: 'client',
    passphrase: options.clientKeyPassphrase,
  });
  return { ca: { cert: ca.cert, key: ca.key }, server, client };
}
