import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { HmacScheme } from '../config/sandbox-config';
import { readSingleHeaderSignature } from './single-header-signature';

/** The clock skew accepted between the client's timestamp and the sandbox clock. */
export const TIMESTAMP_TOLERANCE_SECONDS = 300;

/** HMAC algorithms accepted, recognised by the length of the decoded signature. */
const ALGORITHM_BY_SIGNATURE_BYTES: Record<number, 'sha256' | 'sha512'> = { 32: 'sha256', 64: 'sha512' };

export interface SignedRequest {
  method: string;
  /** Path with the query string, as sent. */
  path: string;
  /** A header's single value (undefined when absent or repeated), by case-insensitive name. */
  header(name: string): string | undefined;
  rawBody: Buffer;
}

export interface AuthFailure {
  code: string;
  message: string;
}

/** What a preset reads from a request: the timestamp, the signature and the bytes it must sign. */
export interface SignatureFields {
  timestamp: string;
  signature: string;
  /** The key id the request names (undefined when it names none), and where (for messages). */
  keyId: string | undefined;
  keyIdSource: string;
  /** Names the header(s) in messages. */
  timestampSource: string;
  signatureSource: string;
  signed(timestamp: string): Buffer;
}

/**
 * Verifies the configured HMAC scheme, written here independently of giro's signers:
 * - `default` (docs/bank-api.md#the-default-hmac-scheme): signature header = base64(HMAC(secret,
 *   `METHOD\nPATH\nTIMESTAMP\nhex(sha256(raw body))`)), timestamp header in unix seconds;
 * - `single-header` (docs/bank-api.md#the-single-header-hmac-preset): see `single-header-signature.ts`.
 * The timestamp must be within ±300 s of the sandbox clock. With a key id configured, the request must name it
 * (`UNKNOWN_KEY_ID` otherwise), as a bank that issued several keys reads which one signed.
 */
export function verifyHmac(
  request: SignedRequest,
  secret: string,
  nowMs: number,
  scheme: HmacScheme,
): AuthFailure | undefined {
  const fields =
    scheme.preset === 'single-header'
      ? readSingleHeaderSignature(request, scheme.signatureHeader)
      : readDefaultSignature(request, scheme);
  if ('code' in fields) return fields;
  const { timestamp, signature } = fields;
  if (scheme.keyId !== null && fields.keyId !== scheme.keyId) {
    // Compared as any id is, not in constant time: a key id is not a secret, it names which secret signs.
    return {
      code: 'UNKNOWN_KEY_ID',
      message:
        fields.keyId === undefined
          ? `${fields.keyIdSource} is required: the bank issued the secret under a key id`
          : `${fields.keyIdSource} names a key the bank did not issue`,
    };
  }
  if (!/^[0-9]{1,12}$/.test(timestamp)) {
    return { code: 'INVALID_TIMESTAMP', message: `${fields.timestampSource} must be unix time in whole seconds` };
  }
  if (Math.abs(nowMs / 1000 - Number(timestamp)) > TIMESTAMP_TOLERANCE_SECONDS) {
    return {
      code: 'STALE_TIMESTAMP',
      message: `${fields.timestampSource} is more than ${TIMESTAMP_TOLERANCE_SECONDS} s away from the bank's clock`,
    };
  }
  const given = Buffer.from(signature, 'base64');
  const algorithm = ALGORITHM_BY_SIGNATURE_BYTES[given.length];
  if (!algorithm || given.toString('base64') !== signature) {
    return {
      code: 'INVALID_SIGNATURE',
      message: `${fields.signatureSource} must be a base64 HMAC-SHA256 or HMAC-SHA512`,
    };
  }
  const expected = createHmac(algorithm, secret).update(fields.signed(timestamp)).digest();
  if (!timingSafeEqual(given, expected)) {
    return { code: 'INVALID_SIGNATURE', message: `${fields.signatureSource} does not match the request` };
  }
  return undefined;
}

function readDefaultSignature(request: SignedRequest, scheme: HmacScheme): SignatureFields | AuthFailure {
  const timestamp = request.header(scheme.timestampHeader);
  const signature = request.header(scheme.signatureHeader);
  if (!timestamp || !signature) {
    return {
      code: 'MISSING_SIGNATURE',
      message: `the ${scheme.timestampHeader} and ${scheme.signatureHeader} headers are required`,
    };
  }
  return {
    timestamp,
    signature,
    keyId: request.header(scheme.keyIdHeader),
    keyIdSource: scheme.keyIdHeader,
    timestampSource: scheme.timestampHeader,
    signatureSource: scheme.signatureHeader,
    signed: (ts) => {
      const bodyDigest = createHash('sha256').update(request.rawBody).digest('hex');
      return Buffer.from(`${request.method}\n${request.path}\n${ts}\n${bodyDigest}`, 'utf8');
    },
  };
}
