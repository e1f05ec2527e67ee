import type { BankClientOptions } from '@giro/transfer-module';
import type { BenchHmac } from './raw-signing';

/** How every system under test reaches the sandbox bank: mutual TLS, static token, HMAC secret. */
export interface BankSettings {
  url: string;
  /** PEM: the CA the server certificate chains to, the client certificate and its key. */
  ca: string;
  cert: string;
  key: string;
  /** The same three as files, for processes configured by environment (the reconciler). */
  files: { ca: string; cert: string; key: string };
  token: string;
  hmacSecret: string;
  /** The HMAC scheme the sandbox requires (`--hmac-preset`), which every system signs with. */
  hmac: BenchHmac;
}

/** giro's bank client options for the sandbox, with `maxConnections` keep-alive connections. */
export function giroBankOptions(bank: BankSettings, maxConnections: number): BankClientOptions {
  return {
    baseUrl: bank.url,
    tls: { ca: bank.ca, cert: bank.cert, key: bank.key },
    auth: { token: bank.token },
    hmac: { secret: bank.hmacSecret, preset: bank.hmac.preset, ...(bank.hmac.keyId && { keyId: bank.hmac.keyId }) },
    maxConnections,
  };
}
