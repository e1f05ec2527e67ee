import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/** The clock skew accepted between the client's X-Timestamp and the sandbox clock. */
export const TIMESTAMP_TOLERANCE_SECONDS = 300;

/** HMAC algorithms accepted, recognised by the length of the decoded signature. */
const ALGORITHM_BY_SIGNATURE_BYTES: Record<number, 'sha256' | 'sha512'> = { 32: 'sha256', 64: 'sha512' };

export interface SignedRequest {
  method: string;
  /** Path with the query string, as sent. */
  path: string;
  timestamp: string | undefined;
  signature: string | undefined;
  rawBody: Buffer;
}

export interface AuthFailure {
  code: string;
  message: string;
}

/**
 * Verifies giro's default HMAC scheme (docs/bank-api.md#the-default-hmac-scheme), written here independently
 * of giro's signer:
 * signature = base64(HMAC(secret, `METHOD\nPATH\nTIMESTAMP\nhex(sha256(raw body))`)), X-Timestamp in
 * unix seconds within ±300 s of the sandbox clock.
 */
export function verifyHmac(request: SignedRequest, secret: string, nowMs: number): AuthFailure | undefined {
  const { timestamp, signature } = request;
  if (!timestamp || !signature) {
    return { code: 'MISSING_SIGNATURE', message: 'the X-Timestamp and X-Signature headers are required' };
  }
  if (!/^[0-9]{1,12}$/.test(timestamp)) {
    return { code: 'INVALID_TIMESTAMP', message: 'X-Timestamp must be unix time in whole seconds' };
  }
  if (Math.abs(nowMs / 1000 - Number(timestamp)) > TIMESTAMP_TOLERANCE_SECONDS) {
    return {
      code: 'STALE_TIMESTAMP',
      message: `X-Timestamp is more than ${TIMESTAMP_TOLERANCE_SECONDS} s away from the bank's clock`,
    };
  }
  const given = Buffer.from(signature, 'base64');
  const algorithm = ALGORITHM_BY_SIGNATURE_BYTES[given.length];
  if (!algorithm || given.toString('base64') !== signature) {
    return { code: 'INVALID_SIGNATURE', message: 'X-Signature must be a base64 HMAC-SHA256 or HMAC-SHA512' };
  }
  const bodyDigest = createHash('sha256').update(request.rawBody).digest('hex');
  const expected = createHmac(algorithm, secret)
    .update(`${request.method}\n${request.path}\n${timestamp}\n${bodyDigest}`)
    .digest();
  if (!timingSafeEqual(given, expected)) {
    return { code: 'INVALID_SIGNATURE', message: 'X-Signature does not match the request' };
  }
  return undefined;
}
