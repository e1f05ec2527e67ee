import { X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CERTIFICATE_FILE_NAMES, ensureCertificateFiles, readCertificateFiles } from './certificate-files';
import { createCertificateAuthority, issueCertificate } from './dev-certificates';

const DAY_MS = 86_400_000;

describe('certificate files', () => {
  let dir: string;
  beforeEach(() => {
    dir = join(mkdtempSync(join(tmpdir(), 'giro-certs-')), 'certs');
  });
  afterEach(() => rmSync(join(dir, '..'), { recursive: true, force: true }));

  it('writes the CA, server and client files, keys readable by the owner only', async () => {
    const result = await ensureCertificateFiles(dir);
    expect(result.renewedBecause).toMatch(/^missing ca\.pem/);
    for (const name of Object.values(CERTIFICATE_FILE_NAMES)) {
      const mode = statSync(join(dir, name)).mode & 0o777;
      expect(mode).toBe(name.endsWith('-key.pem') ? 0o600 : 0o644);
    }
    const pems = readCertificateFiles(result.paths);
    const ca = new X509Certificate(pems.ca);
    expect(new X509Certificate(pems.serverCert).verify(ca.publicKey)).toBe(true);
    expect(new X509Certificate(pems.serverCert).checkIP('127.0.0.1')).toBe('127.0.0.1');
    expect(new X509Certificate(pems.clientCert).verify(ca.publicKey)).toBe(true);
  });

  it('keeps valid files', async () => {
    await ensureCertificateFiles(dir);
    const before = readFileSync(join(dir, 'server.pem'), 'utf8');
    expect((await ensureCertificateFiles(dir)).renewedBecause).toBeUndefined();
    expect(readFileSync(join(dir, 'server.pem'), 'utf8')).toBe(before);
  });

  it('makes them again when a certificate expires within 30 days', async () => {
    await ensureCertificateFiles(dir);
    const validTo = new Date(new X509Certificate(readFileSync(join(dir, 'server.pem'))).validTo).getTime();
    expect((await ensureCertificateFiles(dir, new Date(validTo - 31 * DAY_MS))).renewedBecause).toBeUndefined();
    const renewed = await ensureCertificateFiles(dir, new Date(validTo - 29 * DAY_MS));
    expect(renewed.renewedBecause).toMatch(/server\.pem expires within 30 days/);
  });

  it('makes them again when a file is missing or a leaf is not signed by the CA', async () => {
    await ensureCertificateFiles(dir);
    unlinkSync(join(dir, 'client-key.pem'));
    expect((await ensureCertificateFiles(dir)).renewedBecause).toBe('missing client-key.pem');

    const otherCa = await createCertificateAuthority('other');
    const stranger = await issueCertificate(otherCa, { commonName: 'x', usage: 'client' });
    writeFileSync(join(dir, 'client.pem'), stranger.cert);
    writeFileSync(join(dir, 'client-key.pem'), stranger.key);
    expect((await ensureCertificateFiles(dir)).renewedBecause).toBe('client.pem is not signed by ca.pem');
    expect((await ensureCertificateFiles(dir)).renewedBecause).toBeUndefined();
  });
});
