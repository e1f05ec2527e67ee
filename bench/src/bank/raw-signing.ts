import { createHash, createHmac } from 'node:crypto';

/**
 * The headers of a signed API request, written out by hand for the limit loops and the naive peer (giro has
 * its own signer): the default HMAC scheme (docs/bank-api.md#the-default-hmac-scheme),
 * `base64(HMAC-SHA256(secret, METHOD\nPATH\nTIMESTAMP\nhex(sha256(body))))`, and the static token.
 */
export function signedHeaders(options: {
  path: string;
  body: string;
  token: string;
  hmacSecret: string;
  nowMs?: number;
}): Record<string, string> {
  const timestamp = String(Math.floor((options.nowMs ?? Date.now()) / 1000));
  const bodyDigest = createHash('sha256').update(options.body).digest('hex');
  const signature = createHmac('sha256', options.hmacSecret)
    .update(`POST\n${options.path}\n${timestamp}\n${bodyDigest}`)
    .digest('base64');
  return {
    'content-type': 'application/json',
    authorization: `Bearer ${options.token}`,
    'x-timestamp': timestamp,
    'x-signature': signature,
  };
}

export const TRANSFER_REQUEST_PATH = '/v2/apibank/movements/transfer-request';
export const GET_MOVEMENT_PATH = '/v2/apibank/movements/get-movement';
