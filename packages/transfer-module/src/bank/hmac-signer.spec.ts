import { createHmacSigner, stringToSign } from './hmac-signer';
import { secret } from './secret';

// Expected values computed independently (Python hmac/hashlib) for this input.
const input = {
  method: 'POST',
  path: '/v2/apibank/movements/get-movement?x=1',
  timestamp: 1714657510,
  body: Buffer.from('{"originId":1}'),
};
const BODY_SHA256 = '260bbfaf955726d2028a797893c7054852806791e6c094a36ca7954672480c69';

describe('the default HMAC scheme', () => {
  it('signs METHOD\\nPATH\\nTIMESTAMP\\nhex(sha256(body)), the path with its query string', () => {
    expect(stringToSign(input)).toBe(`POST\n/v2/apibank/movements/get-movement?x=1\n1714657510\n${BODY_SHA256}`);
  });

  it('sends X-Timestamp, X-Signature = base64(HMAC-SHA256) and X-Key-Id when set', async () => {
    const sign = createHmacSigner({ secret: secret('k3y'), keyId: 'key-1', algorithm: 'sha256' });

    expect(await sign(input)).toEqual({
      'x-timestamp': '1714657510',
      'x-signature': 'wOMWk9UvYdTKCvRG+rH6vPKN+1epEou4e4sN8N/6yPA=',
      'x-key-id': 'key-1',
    });
  });

  it('uses HMAC-SHA512 when asked, and omits X-Key-Id without a key id', async () => {
    const sign = createHmacSigner({ secret: secret('k3y'), algorithm: 'sha512' });

    expect(await sign(input)).toEqual({
      'x-timestamp': '1714657510',
      'x-signature': 'Co+oXe7mD5KLCDb6/EDGJ+2jm6/hj3ot2pwlpIH2AWAGBnXI25qKFredWRaPNK5nGggmsIwOhJoPsbFz2uribA==',
    });
  });

  it('sends the same values under the header names it is given', async () => {
    const sign = createHmacSigner({
      secret: secret('k3y'),
      keyId: 'key-1',
      algorithm: 'sha256',
      headers: { timestamp: 'X-Bank-Time', signature: 'X-Bank-Sig', keyId: 'X-Bank-Key' },
    });

    expect(await sign(input)).toEqual({
      'x-bank-time': '1714657510',
      'x-bank-sig': 'wOMWk9UvYdTKCvRG+rH6vPKN+1epEou4e4sN8N/6yPA=',
      'x-bank-key': 'key-1',
    });
  });

  it('changes with every part of the request', async () => {
    const sign = createHmacSigner({ secret: secret('k3y'), algorithm: 'sha256' });
    const base = (await sign(input))['x-signature'];

    const variants = [
      { ...input, method: 'PUT' },
      { ...input, path: '/v2/apibank/movements/get-movement' },
      { ...input, timestamp: input.timestamp + 1 },
      { ...input, body: Buffer.from('{"originId":2}') },
    ];
    for (const variant of variants) expect((await sign(variant))['x-signature']).not.toBe(base);
  });
});
