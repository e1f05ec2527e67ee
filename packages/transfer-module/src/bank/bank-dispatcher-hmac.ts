import type { Dispatcher } from 'undici';
import type { Clock } from '../domain';
import { bodyBytes, dispatchAfter, withHeaders } from './bank-dispatcher-support';
import type { RequestSigner } from './hmac-signer';

/**
 * An undici dispatcher interceptor (composed onto the bank's dispatcher; not a Nest interceptor) that signs
 * every request with `signer` (see `hmac-signer.ts`), timestamped by `clock`. Placed inside the access-token
 * interceptor, so a request sent again after a token refresh is signed again.
 */
export function hmacSigningInterceptor(signer: RequestSigner, clock: Clock): Dispatcher.DispatcherComposeInterceptor {
  return (dispatch) => (options, handler) =>
    dispatchAfter(
      async () => {
        const headers = await signer({
          method: options.method,
          path: options.path,
          timestamp: Math.floor(clock.now().getTime() / 1000),
          body: bodyBytes(options.body),
        });
        return { ...options, headers: withHeaders(options.headers, headers) };
      },
      dispatch,
      handler,
    );
}
