import { createHash, createHmac } from 'node:crypto';
import { Secret } from './secret';

export const HMAC_ALGORITHMS = ['sha256', 'sha512'] as const;
export type HmacAlgorithm = (typeof HMAC_ALGORITHMS)[number];

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
  /** Sent as `X-Key-Id` when set. */
  keyId?: string;
  algorithm: HmacAlgorithm;
}

/** The default scheme (docs/bank-api.md#the-default-hmac-scheme): `METHOD\nPATH\nTIMESTAMP\nhex(sha256(raw body))`. */
export function stringToSign(input: SigningInput): string {
  const bodyHash = createHash('sha256').update(input.body).digest('hex');
  return `${input.method}\n${input.path}\n${input.timestamp}\n${bodyHash}`;
}

/** The default signer: `X-Timestamp`, `X-Signature` = base64(HMAC(secret, string to sign)), `X-Key-Id`. */
export function createHmacSigner(options: HmacSignerOptions): RequestSigner {
  return (input) => {
    const signature = createHmac(options.algorithm, options.secret.reveal())
      .update(stringToSign(input))
      .digest('base64');
    const headers: SignatureHeaders = { 'x-timestamp': String(input.timestamp), 'x-signature': signature };
    if (options.keyId !== undefined) headers['x-key-id'] = options.keyId;
    return headers;
  };
}
