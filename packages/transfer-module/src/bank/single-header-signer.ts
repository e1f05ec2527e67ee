import { createHmac } from 'node:crypto';
import type { HmacSignerOptions, RequestSigner, SignatureHeaders, SigningInput } from './hmac-signer';

/** The header the `single-header` preset sends unless `headers.signature` names another. */
export const SINGLE_HEADER_SIGNATURE_HEADER = 'Signature';

/**
 * The `single-header` preset's string to sign (docs/bank-api.md#the-single-header-hmac-preset):
 * `METHOD PATH\nTIMESTAMP\n` followed by the raw body bytes, the path with its query string.
 */
export function singleHeaderStringToSign(input: SigningInput): Buffer {
  return Buffer.concat([Buffer.from(`${input.method} ${input.path}\n${input.timestamp}\n`, 'utf8'), input.body]);
}

/** One header, `keyId=<key id>,ts=<unix seconds>,sig=<base64 HMAC>` (`keyId=` only when a key id is set). */
export function createSingleHeaderSigner(options: HmacSignerOptions): RequestSigner {
  const name = (options.headers?.signature ?? SINGLE_HEADER_SIGNATURE_HEADER).toLowerCase();
  return (input) => {
    const signature = createHmac(options.algorithm, options.secret.reveal())
      .update(singleHeaderStringToSign(input))
      .digest('base64');
    const parts = [`ts=${input.timestamp}`, `sig=${signature}`];
    if (options.keyId !== undefined) parts.unshift(`keyId=${options.keyId}`);
    const headers: SignatureHeaders = { [name]: parts.join(',') };
    return headers;
  };
}
