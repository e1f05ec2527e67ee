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
    const scheme: HmacScheme = {
      ...DEFAULT_SANDBOX_CONFIG.hmac,
      timestampHeader: 'X-Bank-Time',
      signatureHeader: 'X-Bank-Sig',
    };
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

  it('requires the configured key id, in the key id header or the keyId= field, and names what is wrong', () => {
    const headers = { 'x-timestamp': '1714657510', 'x-signature': 'wOMWk9UvYdTKCvRG+rH6vPKN+1epEou4e4sN8N/6yPA=' };
    const keyed: HmacScheme = { ...DEFAULT_SANDBOX_CONFIG.hmac, timestampHeader: 'X-Timestamp', keyId: 'key-1' };
    const other = { ...DEFAULT_SANDBOX_CONFIG.hmac, timestampHeader: 'X-Bank-Time', signatureHeader: 'X-Bank-Sig' };
    const signed = { 'x-bank-time': headers['x-timestamp'], 'x-bank-sig': headers['x-signature'] };
    const scheme: HmacScheme = { ...other, keyId: 'key-1', keyIdHeader: 'X-Bank-Key' };
    expect(verifyHmac(request({ ...signed, 'x-bank-key': 'key-1' }), 'k3y', NOW_MS, scheme)).toBeUndefined();
    expect(verifyHmac(request({ ...signed, 'x-bank-key': 'key-2' }), 'k3y', NOW_MS, scheme)).toEqual({
      code: 'UNKNOWN_KEY_ID',
      message: 'X-Bank-Key names a key the bank did not issue',
    });
    expect(verifyHmac(request(signed), 'k3y', NOW_MS, scheme)).toEqual({
      code: 'UNKNOWN_KEY_ID',
      message: 'X-Bank-Key is required: the bank issued the secret under a key id',
    });
    expect(verifyHmac(request(headers), 'k3y', NOW_MS, keyed)).toMatchObject({ code: 'UNKNOWN_KEY_ID' });

    const sig = 'jD7W1mgbTwNqkzXl8gQxhrekkIeBUyGO9ve1QtDTdzo=';
    const single: HmacScheme = { ...SINGLE, keyId: 'key-1' };
    expect(verifyHmac(request({ signature: `keyId=key-1,ts=1714657510,sig=${sig}` }), 'k3y', NOW_MS, single)).toBe(
      undefined,
    );
    expect(verifyHmac(request({ signature: `keyId=key-9,ts=1714657510,sig=${sig}` }), 'k3y', NOW_MS, single)).toEqual({
      code: 'UNKNOWN_KEY_ID',
      message: 'Signature keyId names a key the bank did not issue',
    });
    expect(verifyHmac(request({ signature: `ts=1714657510,sig=${sig}` }), 'k3y', NOW_MS, single)).toEqual({
      code: 'UNKNOWN_KEY_ID',
      message: 'Signature keyId is required: the bank issued the secret under a key id',
    });
  });
});
