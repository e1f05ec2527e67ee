import type { Dispatcher } from 'undici';
import { dispatchAfter, PassThroughHandler, withHeaders } from './bank-dispatcher-support';
import type { SecretRedactor } from './secret-redactor';
import type { TokenProvider } from './token-provider';

export const DEFAULT_AUTH_SCHEME = 'Bearer';

/**
 * An undici dispatcher interceptor (composed onto the bank's dispatcher; not a Nest interceptor) that puts
 * `Authorization: <scheme> <token>` on every request. When the bank answers 401, the provider is told
 * which token was refused (it knows it is stale); the one retry happens in `BankClient`, which owns the
 * request and decides whether it may be sent again.
 */
export function authHeaderInterceptor(
  provider: TokenProvider,
  scheme: string,
  redactor: SecretRedactor,
): Dispatcher.DispatcherComposeInterceptor {
  return (dispatch) => (options, handler) => {
    let token: string | undefined;
    const watcher = new UnauthorizedWatcher(handler, () => {
      if (token !== undefined) provider.invalidate?.(token);
    });
    return dispatchAfter(
      async () => {
        token = await provider.getToken();
        redactor.rememberToken(token);
        return { ...options, headers: withHeaders(options.headers, { authorization: `${scheme} ${token}` }) };
      },
      dispatch,
      watcher,
    );
  };
}

/** Passes everything through to `handler`, calling `onUnauthorized` first when the answer is a 401. */
class UnauthorizedWatcher extends PassThroughHandler {
  constructor(
    handler: Dispatcher.DispatchHandler,
    private readonly onUnauthorized: () => void,
  ) {
    super(handler);
  }

  override onResponseStart(...args: Parameters<NonNullable<Dispatcher.DispatchHandler['onResponseStart']>>): void {
    if (args[1] === 401) this.onUnauthorized();
    super.onResponseStart(...args);
  }
}
