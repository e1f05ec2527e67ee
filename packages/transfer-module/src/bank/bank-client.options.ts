import { type Clock, systemClock } from '../domain';
import { DEFAULT_AUTH_SCHEME } from './bank-dispatcher-auth';
import { type BankPaths, bankPaths, DEFAULT_PATH_PREFIX } from './bank-paths';
import { resolveHmacHeaderNames } from './hmac-header-names';
import {
  HMAC_ALGORITHMS,
  HMAC_PRESETS,
  type HmacAlgorithm,
  type HmacHeaderNames,
  type HmacPreset,
  type HmacSignerOptions,
  type RequestSigner,
} from './hmac-signer';
import {
  OAUTH2_CLIENT_AUTHENTICATIONS,
  type OAuth2ClientAuthentication,
  type OAuth2ClientCredentials,
} from './oauth2-token-provider';
import {
  checkKnownKeys,
  checkObject,
  checkOptionalString,
  checkPositiveInteger,
  checkString,
  checkStringList,
  checkUrl,
  fail,
} from './option-checks';
import { Secret, type SecretInput, toSecret } from './secret';
import { type BankTlsOptions, resolveTlsMaterial, type TlsMaterial } from './tls-material';
import type { TokenProvider } from './token-provider';

/** OAuth2 client credentials (RFC 6749 §4.4). The token endpoint is reached through the bank's mTLS and proxy. */
export interface BankOAuth2Options {
  tokenUrl: string;
  clientId: string;
  clientSecret: SecretInput;
  scope?: string;
  /** Default `basic`. */
  clientAuthentication?: OAuth2ClientAuthentication;
  /** Default 60 000 (a token is replaced a minute before it expires, at most half its lifetime early). */
  refreshMarginMs?: number;
}

/** Where the access token comes from: exactly one of `token`, `oauth2`, `provider`. */
export type BankAuthOptions = { scheme?: string } & (
  | { token: SecretInput }
  | { oauth2: BankOAuth2Options }
  | { provider: TokenProvider }
);

/**
 * Request signing: a built-in preset (docs/bank-api.md#the-default-hmac-scheme, `preset` default `default`) with
 * the header names the bank expects, or a signer of your own.
 */
export type BankHmacOptions =
  | {
      secret: SecretInput;
      keyId?: string;
      algorithm?: HmacAlgorithm;
      preset?: HmacPreset;
      /** Defaults X-Timestamp, X-Signature, X-Key-Id; the `single-header` preset sends `signature` (`Signature`) only. */
      headers?: Partial<HmacHeaderNames>;
    }
  | { signer: RequestSigner };

export interface BankTimeouts {
  /** TCP + TLS handshake (and the proxy tunnel). Default 10 000. */
  connectMs?: number;
  /** From the request being written to the answer's headers. Default 30 000. */
  headersMs?: number;
  /** Between two chunks of the answer's body. Default 30 000. */
  bodyMs?: number;
}

export interface BankClientOptions {
  /** https URL of the bank; may include a path below which the API is mounted. */
  baseUrl: string;
  /** Default `/v2/apibank` (docs/bank-api.md#versioning). */
  pathPrefix?: string;
  tls: BankTlsOptions;
  /** http URL of a forward proxy (CONNECT tunnel), e.g. a VPN gateway. */
  proxyUrl?: string;
  auth: BankAuthOptions;
  hmac?: BankHmacOptions;
  timeouts?: BankTimeouts;
  /** Keep-alive connections per origin. Default 10. */
  maxConnections?: number;
  /** Longest answer body read; the rest is not read. Default 1 MiB. */
  maxResponseBytes?: number;
  /** Error codes meaning "this originId was already processed", on a 409 or any other 4xx. Default none. */
  duplicateCodes?: readonly string[];
  /** get-movement 4xx codes meaning "no such movement", besides HTTP 404. Default none. */
  notFoundCodes?: readonly string[];
  /** Top-level fields of a 200 create answer whose presence marks a repeated originId. */
  duplicateWarningFields?: readonly string[];
  /** get-movement field of a DEBIN id (unnamed by the bank: docs/bank-api.md#open-points). Default `debinId`. */
  debinIdField?: string;
  clock?: Clock;
}

export type ResolvedAuth =
  | { kind: 'static'; scheme: string; token: Secret }
  | { kind: 'oauth2'; scheme: string; credentials: OAuth2ClientCredentials }
  | { kind: 'provider'; scheme: string; provider: TokenProvider };

export type ResolvedHmac = { kind: 'default'; options: HmacSignerOptions } | { kind: 'custom'; signer: RequestSigner };

/** The validated options with defaults applied; every secret is a `Secret`, so this object is safe to print. */
export interface ResolvedBankClientOptions {
  origin: string;
  paths: BankPaths;
  tls: TlsMaterial;
  proxyUrl?: string;
  auth: ResolvedAuth;
  hmac?: ResolvedHmac;
  timeouts: Required<BankTimeouts>;
  maxConnections: number;
  maxResponseBytes: number;
  duplicateCodes: string[];
  notFoundCodes: string[];
  duplicateWarningFields: string[];
  debinIdField: string;
  clock: Clock;
}

export const BANK_CLIENT_DEFAULTS = {
  pathPrefix: DEFAULT_PATH_PREFIX,
  timeouts: { connectMs: 10_000, headersMs: 30_000, bodyMs: 30_000 },
  maxConnections: 10,
  maxResponseBytes: 1024 * 1024,
  duplicateWarningFields: ['warning', 'warnings', 'message'],
  debinIdField: 'debinId',
  authScheme: DEFAULT_AUTH_SCHEME,
  hmacAlgorithm: 'sha256' as HmacAlgorithm,
  hmacPreset: 'default' as HmacPreset,
  oauth2ClientAuthentication: 'basic' as OAuth2ClientAuthentication,
  oauth2RefreshMarginMs: 60_000,
} as const;

const ROOT = 'bank';
const OPTION_KEYS = [
  'baseUrl',
  'pathPrefix',
  'tls',
  'proxyUrl',
  'auth',
  'hmac',
  'timeouts',
  'maxConnections',
  'maxResponseBytes',
  'duplicateCodes',
  'notFoundCodes',
  'duplicateWarningFields',
  'debinIdField',
  'clock',
] as const;

// RFC 9110 token characters: the scheme word goes into the Authorization header.
const SCHEME_PATTERN = /^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/;
const FIELD_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*$/;
const HEADER_VALUE_PATTERN = /^[\x21-\x7e]+$/;

/** Validates `options` (messages name the option, e.g. `bank.baseUrl must be an https URL`) and applies defaults. */
export function resolveBankClientOptions(options: BankClientOptions): ResolvedBankClientOptions {
  const input = checkObject(options, ROOT);
  checkKnownKeys(input, ROOT, OPTION_KEYS);
  const baseUrl = checkUrl(input.baseUrl, `${ROOT}.baseUrl`, ['https:']);
  if (baseUrl.search) fail(`${ROOT}.baseUrl`, 'must not have a query string');
  const pathPrefix =
    input.pathPrefix === undefined
      ? BANK_CLIENT_DEFAULTS.pathPrefix
      : checkString(input.pathPrefix, `${ROOT}.pathPrefix`);
  const proxyUrl = input.proxyUrl === undefined ? undefined : checkUrl(input.proxyUrl, `${ROOT}.proxyUrl`, ['http:']);
  if (proxyUrl && (proxyUrl.pathname !== '/' || proxyUrl.search)) fail(`${ROOT}.proxyUrl`, 'must have no path');
  const hmac = resolveHmac(input.hmac);
  const clock = input.clock ?? systemClock;
  if (typeof (clock as Clock).now !== 'function') fail(`${ROOT}.clock`, 'must have a now() method');

  return {
    origin: baseUrl.origin,
    paths: bankPaths(baseUrl.pathname, pathPrefix, `${ROOT}.pathPrefix`),
    tls: resolveTlsMaterial(input.tls, `${ROOT}.tls`),
    ...(proxyUrl && { proxyUrl: proxyUrl.origin }),
    auth: resolveAuth(input.auth),
    ...(hmac && { hmac }),
    timeouts: resolveTimeouts(input.timeouts),
    maxConnections: checkPositiveInteger(
      input.maxConnections,
      `${ROOT}.maxConnections`,
      BANK_CLIENT_DEFAULTS.maxConnections,
    ),
    maxResponseBytes: checkPositiveInteger(
      input.maxResponseBytes,
      `${ROOT}.maxResponseBytes`,
      BANK_CLIENT_DEFAULTS.maxResponseBytes,
      1024,
    ),
    duplicateCodes: checkStringList(input.duplicateCodes, `${ROOT}.duplicateCodes`, []),
    notFoundCodes: checkStringList(input.notFoundCodes, `${ROOT}.notFoundCodes`, []),
    duplicateWarningFields: checkStringList(
      input.duplicateWarningFields,
      `${ROOT}.duplicateWarningFields`,
      BANK_CLIENT_DEFAULTS.duplicateWarningFields,
    ),
    debinIdField: resolveDebinIdField(input.debinIdField),
    clock: clock as Clock,
  };
}

function resolveAuth(value: unknown): ResolvedAuth {
  const name = `${ROOT}.auth`;
  const auth = checkObject(value, name);
  checkKnownKeys(auth, name, ['scheme', 'token', 'oauth2', 'provider']);
  const scheme =
    auth.scheme === undefined ? BANK_CLIENT_DEFAULTS.authScheme : checkString(auth.scheme, `${name}.scheme`);
  if (!SCHEME_PATTERN.test(scheme)) fail(`${name}.scheme`, 'must be one word, e.g. Bearer or JWT');
  const sources = (['token', 'oauth2', 'provider'] as const).filter((key) => auth[key] !== undefined);
  if (sources.length !== 1) fail(name, 'must have exactly one of token, oauth2, provider');
  if (auth.token !== undefined) {
    return { kind: 'static', scheme, token: toSecret(checkSecret(auth.token, `${name}.token`)) };
  }
  if (auth.provider !== undefined) {
    const provider = checkObject(auth.provider, `${name}.provider`);
    if (typeof provider.getToken !== 'function') fail(`${name}.provider`, 'must have a getToken() method');
    return { kind: 'provider', scheme, provider: auth.provider as TokenProvider };
  }
  return { kind: 'oauth2', scheme, credentials: resolveOAuth2(auth.oauth2) };
}

function resolveOAuth2(value: unknown): OAuth2ClientCredentials {
  const name = `${ROOT}.auth.oauth2`;
  const oauth2 = checkObject(value, name);
  checkKnownKeys(oauth2, name, [
    'tokenUrl',
    'clientId',
    'clientSecret',
    'scope',
    'clientAuthentication',
    'refreshMarginMs',
  ]);
  const tokenUrl = checkUrl(oauth2.tokenUrl, `${name}.tokenUrl`, ['https:']);
  const clientAuthentication = oauth2.clientAuthentication ?? BANK_CLIENT_DEFAULTS.oauth2ClientAuthentication;
  if (!(OAUTH2_CLIENT_AUTHENTICATIONS as readonly unknown[]).includes(clientAuthentication)) {
    fail(`${name}.clientAuthentication`, `must be one of ${OAUTH2_CLIENT_AUTHENTICATIONS.join(', ')}`);
  }
  const scope = checkOptionalString(oauth2.scope, `${name}.scope`);
  return {
    tokenUrl: tokenUrl.href,
    clientId: checkString(oauth2.clientId, `${name}.clientId`),
    clientSecret: toSecret(checkSecret(oauth2.clientSecret, `${name}.clientSecret`)),
    ...(scope !== undefined && { scope }),
    clientAuthentication: clientAuthentication as OAuth2ClientAuthentication,
    refreshMarginMs: checkPositiveInteger(
      oauth2.refreshMarginMs,
      `${name}.refreshMarginMs`,
      BANK_CLIENT_DEFAULTS.oauth2RefreshMarginMs,
      0,
    ),
  };
}

function resolveHmac(value: unknown): ResolvedHmac | undefined {
  if (value === undefined) return undefined;
  const name = `${ROOT}.hmac`;
  const hmac = checkObject(value, name);
  const schemeKeys = ['secret', 'keyId', 'algorithm', 'preset', 'headers'];
  checkKnownKeys(hmac, name, [...schemeKeys, 'signer']);
  if (hmac.signer !== undefined) {
    if (typeof hmac.signer !== 'function') fail(`${name}.signer`, 'must be a function');
    if (schemeKeys.some((key) => hmac[key] !== undefined)) {
      fail(name, 'must have either signer or secret (with keyId, algorithm, preset, headers), not both');
    }
    return { kind: 'custom', signer: hmac.signer as RequestSigner };
  }
  const algorithm = hmac.algorithm ?? BANK_CLIENT_DEFAULTS.hmacAlgorithm;
  if (!(HMAC_ALGORITHMS as readonly unknown[]).includes(algorithm)) {
    fail(`${name}.algorithm`, `must be one of ${HMAC_ALGORITHMS.join(', ')}`);
  }
  const preset = hmac.preset ?? BANK_CLIENT_DEFAULTS.hmacPreset;
  if (!(HMAC_PRESETS as readonly unknown[]).includes(preset)) {
    fail(`${name}.preset`, `must be one of ${HMAC_PRESETS.join(', ')}`);
  }
  const keyId = checkOptionalString(hmac.keyId, `${name}.keyId`);
  if (keyId !== undefined && !HEADER_VALUE_PATTERN.test(keyId))
    fail(`${name}.keyId`, 'must be visible ASCII without spaces');
  if (keyId?.includes(',') && preset === 'single-header')
    fail(`${name}.keyId`, 'must not contain a comma with the single-header preset (commas separate its fields)');
  const headers = resolveHmacHeaderNames(hmac.headers, preset as HmacPreset, `${name}.headers`);
  return {
    kind: 'default',
    options: {
      secret: toSecret(checkSecret(hmac.secret, `${name}.secret`)),
      ...(keyId !== undefined && { keyId }),
      algorithm: algorithm as HmacAlgorithm,
      preset: preset as HmacPreset,
      ...(headers && { headers }),
    },
  };
}

function resolveTimeouts(value: unknown): Required<BankTimeouts> {
  const defaults = BANK_CLIENT_DEFAULTS.timeouts;
  if (value === undefined) return { ...defaults };
  const name = `${ROOT}.timeouts`;
  const timeouts = checkObject(value, name);
  checkKnownKeys(timeouts, name, ['connectMs', 'headersMs', 'bodyMs']);
  return {
    connectMs: checkPositiveInteger(timeouts.connectMs, `${name}.connectMs`, defaults.connectMs),
    headersMs: checkPositiveInteger(timeouts.headersMs, `${name}.headersMs`, defaults.headersMs),
    bodyMs: checkPositiveInteger(timeouts.bodyMs, `${name}.bodyMs`, defaults.bodyMs),
  };
}

function resolveDebinIdField(value: unknown): string {
  if (value === undefined) return BANK_CLIENT_DEFAULTS.debinIdField;
  const name = `${ROOT}.debinIdField`;
  const field = checkString(value, name);
  if (!FIELD_NAME_PATTERN.test(field)) fail(name, 'must be a JSON field name (letters, digits, _)');
  if (['originId', 'networkId', 'getRawData'].includes(field))
    fail(name, 'must not be a field the request already uses');
  return field;
}

function checkSecret(value: unknown, name: string): SecretInput {
  if (value instanceof Secret) {
    if (value.reveal() === '') fail(name, 'must not be empty');
    return value;
  }
  return checkString(value, name);
}
