import { createHmacSigner } from './hmac-signer';
import { secret } from './secret';
import { singleHeaderStringToSign } from './single-header-signer';

// Expected values computed independently (Python hmac/hashlib) for this input.
const input = {
  method: 'POST',
  path: '/v2/apibank/movements/get-movement?x=1',
  timestamp: 1714657510,
  body: Buffer.from('{"originId":1}'),
};

describe('the single-header HMAC preset', () => {
  it('signs "METHOD PATH\\nTIMESTAMP\\n" and the raw body, the path with its query string', () => {
    expect(singleHeaderStringToSign(input).toString('utf8')).toBe(
      'POST /v2/apibank/movements/get-movement?x=1\n1714657510\n{"originId":1}',
    );
  });

  it('sends one Signature header: keyId, ts and the base64 HMAC-SHA256', async () => {
    const sign = createHmacSigner({
      secret: secret('k3y'),
      keyId: 'key-1',
      algorithm: 'sha256',
      preset: 'single-header',
    });

    expect(await sign(input)).toEqual({
      signature: 'keyId=key-1,ts=1714657510,sig=jD7W1mgbTwNqkzXl8gQxhrekkIeBUyGO9ve1QtDTdzo=',
    });
  });

  it('uses HMAC-SHA512, leaves keyId out without a key id, and takes another header name', async () => {
    const sign = createHmacSigner({
      secret: secret('k3y'),
      algorithm: 'sha512',
      preset: 'single-header',
      headers: { signature: 'X-Api-Signature' },
    });

    expect(await sign(input)).toEqual({
      'x-api-signature':
        'ts=1714657510,sig=5AS40h5pD/TqcWnNZnXP3qV0M3ZDogMeopDDBhAmVaebDzLY5ZyMrW5BkrL6NLhl6elG6Q601EOsmVq9nMpC7Q==',
    });
  });

  it('changes with every part of the request', async () => {
    const sign = createHmacSigner({ secret: secret('k3y'), algorithm: 'sha256', preset: 'single-header' });
    const base = (await sign(input)).signature;

    const variants = [
      { ...input, method: 'PUT' },
      { ...input, path: '/v2/apibank/movements/get-movement' },
      { ...input, timestamp: input.timestamp + 1 },
      { ...input, body: Buffer.from('{"originId":2}') },
    ];
    for (const variant of variants) expect((await sign(variant)).signature).not.toBe(base);
  });
});
