import { createPrivateKey, X509Certificate } from 'node:crypto';
import { createCertificateAuthority, createDevCertificates, issueCertificate } from './dev-certificates';

describe('dev certificates', () => {
  it('issues server and client certificates that verify against their CA and not against another', async () => {
    const certs = await createDevCertificates();
    const ca = new X509Certificate(certs.ca.cert);
    const server = new X509Certificate(certs.server.cert);
    const client = new X509Certificate(certs.client.cert);
    expect(server.verify(ca.publicKey)).toBe(true);
    expect(client.verify(ca.publicKey)).toBe(true);
    expect(server.checkHost('localhost')).toBe('localhost');
    expect(server.checkIP('127.0.0.1')).toBe('127.0.0.1');
    expect(ca.ca).toBe(true);
    expect(server.ca).toBe(false);

    const other = new X509Certificate((await createCertificateAuthority('other CA')).cert);
    expect(server.verify(other.publicKey)).toBe(false);
  });

  it('encrypts a key with a passphrase so that it cannot be read without it', async () => {
    const ca = await createCertificateAuthority();
    const leaf = await issueCertificate(ca, { commonName: 'c', usage: 'client', passphrase: 'open sesame' });
    expect(leaf.key).toContain('ENCRYPTED PRIVATE KEY');
    expect(() => createPrivateKey({ key: leaf.key })).toThrow();
    expect(createPrivateKey({ key: leaf.key, passphrase: 'open sesame' }).asymmetricKeyType).toBe('ec');
  });
});
