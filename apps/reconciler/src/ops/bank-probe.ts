import { isIP } from 'node:net';
import { connect } from 'node:tls';
import type { TlsMaterial } from '@giro/transfer-module/bank';

/** Checks that the bank can be reached; rejects with the reason when it cannot. */
export type BankProbe = () => Promise<void>;

/**
 * A mutual-TLS handshake with the bank's origin, with the client's own certificate and CA, and nothing
 * more: it proves the route and the certificates without spending the bank's rate budget or touching any
 * movement. The server certificate is verified as for real calls. `material` gives the TLS material in use at
 * each probe (it changes when reloaded).
 */
export function tlsHandshakeProbe(origin: string, material: () => TlsMaterial, timeoutMs = 3000): BankProbe {
  const url = new URL(origin);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return () =>
    new Promise<void>((resolve, reject) => {
      const tls = material();
      const socket = connect({
        host,
        port: Number(url.port || 443),
        // SNI carries host names only; an IP address is still verified against the certificate.
        servername: tls.servername ?? (isIP(host) ? undefined : host),
        ...(tls.ca !== undefined && { ca: tls.ca }),
        cert: tls.cert,
        key: tls.key.reveal(),
        ...(tls.passphrase && { passphrase: tls.passphrase.reveal() }),
        timeout: timeoutMs,
      });
      socket.once('secureConnect', () => {
        socket.end();
        resolve();
      });
      socket.once('timeout', () => {
        socket.destroy();
        reject(new Error(`no TLS handshake with ${origin} within ${timeoutMs} ms`));
      });
      socket.once('error', (error: Error & { code?: string }) => {
        socket.destroy();
        reject(new Error(`${origin} is not reachable (${error.code ?? error.message})`));
      });
    });
}
