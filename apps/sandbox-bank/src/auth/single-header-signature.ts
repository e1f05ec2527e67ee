import type { AuthFailure, SignatureFields, SignedRequest } from './hmac-verifier';

/**
 * The `single-header` preset (docs/bank-api.md#the-single-header-hmac-preset): one header
 * `keyId=<key id>,ts=<unix seconds>,sig=<base64 HMAC>` (`keyId` optional, in any order), the HMAC over
 * `METHOD PATH\nTIMESTAMP\n` followed by the raw body bytes.
 */
export function readSingleHeaderSignature(request: SignedRequest, headerName: string): SignatureFields | AuthFailure {
  const value = request.header(headerName);
  if (!value) return { code: 'MISSING_SIGNATURE', message: `the ${headerName} header is required` };
  const fields = new Map<string, string>();
  for (const part of value.split(',')) {
    const equals = part.indexOf('=');
    const key = part.slice(0, equals).trim();
    if (equals < 1 || fields.has(key)) {
      return { code: 'INVALID_SIGNATURE', message: `${headerName} must be keyId=…,ts=…,sig=… (each once)` };
    }
    fields.set(key, part.slice(equals + 1).trim());
  }
  const timestamp = fields.get('ts');
  const signature = fields.get('sig');
  if (!timestamp || !signature) {
    return { code: 'MISSING_SIGNATURE', message: `${headerName} must carry ts=… and sig=…` };
  }
  return {
    timestamp,
    signature,
    keyId: fields.get('keyId'),
    keyIdSource: `${headerName} keyId`,
    timestampSource: `${headerName} ts`,
    signatureSource: `${headerName} sig`,
    signed: (ts) => Buffer.concat([Buffer.from(`${request.method} ${request.path}\n${ts}\n`, 'utf8'), request.rawBody]),
  };
}
