/** What a client must present. Fixed at start; never printed, logged or answered. */
export interface SandboxCredentials {
  /** The static access token. */
  token: string;
  /** OAuth2 client credentials accepted by `POST /oauth/token`. */
  clientId: string;
  clientSecret: string;
  hmacSecret: string;
  /** The word before the token in `Authorization` (compared case-insensitively). */
  authScheme: string;
  /** Lifetime of the tokens issued by `POST /oauth/token`. */
  tokenTtlSeconds: number;
}

export const DEFAULT_SANDBOX_CREDENTIALS: Readonly<SandboxCredentials> = Object.freeze({
  token: 'sandbox-token',
  clientId: 'sandbox',
  clientSecret: 'sandbox-secret',
  hmacSecret: 'sandbox-hmac-secret',
  authScheme: 'Bearer',
  tokenTtlSeconds: 3600,
});
