import { Agent, type Dispatcher, Pool, ProxyAgent } from 'undici';
import type { ResolvedBankClientOptions } from './bank-client.options';

export type BankDispatcherOptions = Pick<ResolvedBankClientOptions, 'tls' | 'proxyUrl' | 'timeouts' | 'maxConnections'>;

/**
 * The connection pool to the bank: keep-alive connections per origin (a Pool per origin, inside an Agent so
 * that an OAuth2 token endpoint on another host shares the TLS settings), mutual TLS, explicit timeouts,
 * optionally through a CONNECT proxy. No retry agent and no redirect interceptor are composed in: undici
 * never sends a request again on its own, so a create is written at most once per call.
 */
export function createBankDispatcher(options: BankDispatcherOptions): Dispatcher {
  const { tls, timeouts } = options;
  const bankTls = {
    ...(tls.ca !== undefined && { ca: tls.ca }),
    cert: tls.cert,
    key: tls.key.reveal(),
    ...(tls.passphrase !== undefined && { passphrase: tls.passphrase.reveal() }),
    ...(tls.servername !== undefined && { servername: tls.servername }),
    // Explicit, so that Node's process-wide environment switch for skipping verification cannot turn it off.
    rejectUnauthorized: true,
    timeout: timeouts.connectMs,
  };
  const pooling = {
    connections: options.maxConnections,
    headersTimeout: timeouts.headersMs,
    bodyTimeout: timeouts.bodyMs,
  };
  if (options.proxyUrl === undefined) return new Agent({ ...pooling, connect: bankTls });
  return new ProxyAgent({
    ...pooling,
    uri: options.proxyUrl,
    requestTls: bankTls,
    proxyTls: { timeout: timeouts.connectMs },
    // The tunnel request (CONNECT) is part of connecting: bound it by the connect timeout too.
    clientFactory: (origin, clientOptions) =>
      new Pool(origin, { ...clientOptions, headersTimeout: timeouts.connectMs }),
  });
}
