import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { ensureCertificateFiles } from '../certs/certificate-files';

/** `giro-sandbox-bank certs` (`pnpm certs`): a development CA, server and client certificates in ./certs, made again when needed. */
export async function writeCertificates(): Promise<void> {
  const dir = resolve('certs');
  const { paths, renewedBecause } = await ensureCertificateFiles(dir);
  const validTo = new X509Certificate(readFileSync(paths.serverCert)).validTo;
  console.log(
    renewedBecause
      ? `certificates written to ${dir} (${renewedBecause}); valid until ${validTo}`
      : `certificates in ${dir} are valid until ${validTo}; kept`,
  );
}
