export * from './bank.errors';
export { BankCallBudget, type BankCallBudgetOptions, type BankCallPriority } from './bank-call-budget';
export { type BankCallOptions, BankClient, type CreateTransferResult, type GetMovementOptions } from './bank-client';
export {
  BANK_CLIENT_DEFAULTS,
  type BankAuthOptions,
  type BankClientOptions,
  type BankHmacOptions,
  type BankOAuth2Options,
  type BankTimeouts,
  type ResolvedAuth,
  type ResolvedBankClientOptions,
  type ResolvedHmac,
  resolveBankClientOptions,
} from './bank-client.options';
export { DEFAULT_AUTH_SCHEME } from './bank-dispatcher-auth';
export type { BankCounterparty, BankMovement, BankSubAccount } from './bank-movement';
export { type BankPaths, DEFAULT_PATH_PREFIX } from './bank-paths';
export {
  createHmacSigner,
  HMAC_ALGORITHMS,
  HMAC_PRESETS,
  type HmacAlgorithm,
  type HmacHeaderNames,
  type HmacPreset,
  type HmacSignerOptions,
  type RequestSigner,
  type SignatureHeaders,
  type SigningInput,
  stringToSign,
} from './hmac-signer';
export type { MovementLookup } from './movement-lookup';
export { type MovementExpectation, type ParseMovementResult, parseMovement } from './movement-parser';
export type { OAuth2ClientAuthentication, OAuth2ClientCredentials } from './oauth2-token-provider';
export { Secret, type SecretInput, secret } from './secret';
export { type BankTlsOptions, pemCertificates, type TlsMaterial } from './tls-material';
export { StaticTokenProvider, type TokenProvider } from './token-provider';
