import { DEFAULT_SANDBOX_CONFIG, type HmacScheme } from '../config/sandbox-config';
import { type SignedRequest, verifyHmac } from './hmac-verifier';

// Signatures computed independently (Python hmac/hashlib) with the secret `k3y` at 1714657510.
const NOW_MS = 1714657510_000;
const SINGLE: HmacScheme = { ...DEFAULT_SANDBOX_CONFIG.hmac, preset: 'single-header', signatureHeader: 'Signature' };

const request = (headers: Record<string, string>, body = '{"originId":1}'): SignedRequest => ({
  method: 'POST',
  path: '/v2/apibank/movements/get-movement?x=1',
  header: (name) => headers[name.toLowerCase()],
  rawBody: Buffer.from(body),
});

describe('the sandbox HMAC verifier', () => {
  it('accepts the default scheme under the header names it is configured with', () => {
    const scheme = { preset: 'default', timestampHeader: 'X-Bank-Time', signatureHeader: 'X-Bank-Sig' } as const;
    const headers = { 'x-bank-time': '1714657510', 'x-bank-sig': 'wOMWk9UvYdTKCvRG+rH6vPKN+1epEou4e4sN8N/6yPA=' };

    expect(verifyHmac(request(headers), 'k3y', NOW_MS, scheme)).toBeUndefined();
    expect(verifyHmac(request(headers), 'k3y', NOW_MS, DEFAULT_SANDBOX_CONFIG.hmac)).toEqual({
      code: 'MISSING_SIGNATURE',
      message: 'the X-Timestamp and X-Signature headers are required',
    });
  });

  it('accepts the single-header preset, with or without a key id, in any order', () => {
    const sig = 'jD7W1mgbTwNqkzXl8gQxhrekkIeBUyGO9ve1QtDTdzo=';
    for (const value of [`keyId=key-1,ts=1714657510,sig=${sig}`, `sig=${sig},ts=1714657510`])
      expect(verifyHmac(request({ signature: value }), 'k3y', NOW_MS, SINGLE)).toBeUndefined();
  });

  it.each([
    ['no header', {}, 'MISSING_SIGNATURE', 'the Signature header is required'],
    ['no sig', { signature: 'ts=1714657510' }, 'MISSING_SIGNATURE', 'Signature must carry ts=… and sig=…'],
    [
      'a repeated field',
      { signature: 'ts=1,ts=2,sig=AA==' },
      'INVALID_SIGNATURE',
      'Signature must be keyId=…,ts=…,sig=… (each once)',
    ],
    [
      'a stale ts',
      { signature: 'ts=1714650000,sig=AA==' },
      'STALE_TIMESTAMP',
      "Signature ts is more than 300 s away from the bank's clock",
    ],
    [
      'the signature of another body',
      { signature: 'ts=1714657510,sig=wOMWk9UvYdTKCvRG+rH6vPKN+1epEou4e4sN8N/6yPA=' },
      'INVALID_SIGNATURE',
      'Signature sig does not match the request',
    ],
  ])('refuses the single-header preset with %s', (_case, headers, code, message) => {
    expect(verifyHmac(request(headers as Record<string, string>), 'k3y', NOW_MS, SINGLE)).toEqual({ code, message });
  });
});
