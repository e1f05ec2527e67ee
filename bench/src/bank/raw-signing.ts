import { createHash, createHmac } from 'node:crypto';

/** The HMAC schemes the bench's raw clients sign with: the sandbox's `hmac` setting must be the same. */
export interface BenchHmac {
  preset: 'default' | 'single-header';
  /** Sent when set (`X-Key-Id`, or `keyId=` with `single-header`); the sandbox then requires it. */
  keyId?: string;
}

export const DEFAULT_BENCH_HMAC: BenchHmac = { preset: 'default' };

/**
 * The headers of a signed API request, written out by hand for the limit loops and the naive peer (giro has
 * its own signers), with the static token:
 * - `default` (docs/bank-api.md#the-default-hmac-scheme): `X-Timestamp`, and `X-Signature` =
 *   `base64(HMAC-SHA256(secret, METHOD\nPATH\nTIMESTAMP\nhex(sha256(body))))`, `X-Key-Id` when a key id is set;
 * - `single-header` (docs/bank-api.md#the-single-header-hmac-preset): `Signature: keyId=…,ts=…,sig=…`, the HMAC
 *   over `METHOD PATH\nTIMESTAMP\n` followed by the body bytes.
 */
export function signedHeaders(options: {
  path: string;
  body: string;
  token: string;
  hmacSecret: string;
  hmac?: BenchHmac;
  nowMs?: number;
}): Record<string, string> {
  const { preset, keyId } = options.hmac ?? DEFAULT_BENCH_HMAC;
  const timestamp = String(Math.floor((options.nowMs ?? Date.now()) / 1000));
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    authorization: `Bearer ${options.token}`,
  };
  if (preset === 'single-header') {
    const signature = createHmac('sha256', options.hmacSecret)
      .update(`POST ${options.path}\n${timestamp}\n`)
      .update(options.body)
      .digest('base64');
    headers.signature = `${keyId === undefined ? '' : `keyId=${keyId},`}ts=${timestamp},sig=${signature}`;
    return headers;
  }
  const bodyDigest = createHash('sha256').update(options.body).digest('hex');
  headers['x-timestamp'] = timestamp;
  headers['x-signature'] = createHmac('sha256', options.hmacSecret)
    .update(`POST\n${options.path}\n${timestamp}\n${bodyDigest}`)
    .digest('base64');
  if (keyId !== undefined) headers['x-key-id'] = keyId;
  return headers;
}

export const TRANSFER_REQUEST_PATH = '/v2/apibank/movements/transfer-request';
export const GET_MOVEMENT_PATH = '/v2/apibank/movements/get-movement';
