import { createHash, createHmac } from 'node:crypto';
import type { Secret } from './secret';
import { createSingleHeaderSigner } from './single-header-signer';

export const HMAC_ALGORITHMS = ['sha256', 'sha512'] as const;
export type HmacAlgorithm = (typeof HMAC_ALGORITHMS)[number];

/**
 * The built-in signing schemes: `default` (docs/bank-api.md#the-default-hmac-scheme) and `single-header`
 * (docs/bank-api.md#the-single-header-hmac-preset), for banks that sign the path and body into one header.
 */
export const HMAC_PRESETS = ['default', 'single-header'] as const;
export type HmacPreset = (typeof HMAC_PRESETS)[number];

/** The names of the headers a preset sends; `single-header` uses `signature` only. */
export interface HmacHeaderNames {
  timestamp: string;
  signature: string;
  keyId: string;
}

/** The default preset's header names. */
export const DEFAULT_HMAC_HEADERS: Readonly<HmacHeaderNames> = Object.freeze({
  timestamp: 'X-Timestamp',
  signature: 'X-Signature',
  keyId: 'X-Key-Id',
});

/** What a signer sees of one request: exactly the bytes that go on the wire. */
export interface SigningInput {
  method: string;
  /** The request path as sent, query string included. */
  path: string;
  /** Unix time in whole seconds, from the client's clock. */
  timestamp: number;
  body: Buffer;
}

/** Headers to add to the request. */
export type SignatureHeaders = Record<string, string>;

/** Signs one request. The default is `createHmacSigner`; a bank with another scheme gets its own function. */
export type RequestSigner = (input: SigningInput) => SignatureHeaders | Promise<SignatureHeaders>;

export interface HmacSignerOptions {
  secret: Secret;
  /** Sent (in `X-Key-Id` by default) when set. */
  keyId?: string;
  algorithm: HmacAlgorithm;
  /** Default `default`. */
  preset?: HmacPreset;
  /** Header names other than the preset's. */
  headers?: Partial<HmacHeaderNames>;
}

/** The default scheme (docs/bank-api.md#the-default-hmac-scheme): `METHOD\nPATH\nTIMESTAMP\nhex(sha256(raw body))`. */
export function stringToSign(input: SigningInput): string {
  const bodyHash = createHash('sha256').update(input.body).digest('hex');
  return `${input.method}\n${input.path}\n${input.timestamp}\n${bodyHash}`;
}

/** The signer of `options.preset`: by default `X-Timestamp`, `X-Signature` = base64(HMAC(secret, string to sign)), `X-Key-Id`. */
export function createHmacSigner(options: HmacSignerOptions): RequestSigner {
  if (options.preset === 'single-header') return createSingleHeaderSigner(options);
  const names = { ...DEFAULT_HMAC_HEADERS, ...options.headers };
  return (input) => {
    const signature = createHmac(options.algorithm, options.secret.reveal())
      .update(stringToSign(input))
      .digest('base64');
    const headers: SignatureHeaders = {
      [names.timestamp.toLowerCase()]: String(input.timestamp),
      [names.signature.toLowerCase()]: signature,
    };
    if (options.keyId !== undefined) headers[names.keyId.toLowerCase()] = options.keyId;
    return headers;
  };
}
