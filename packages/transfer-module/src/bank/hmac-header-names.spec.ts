import { BankOptionsError } from './bank.errors';
import { resolveHmacHeaderNames } from './hmac-header-names';
import type { HmacPreset } from './hmac-signer';

describe('the HMAC header names option', () => {
  const messageFor = (value: unknown, preset: HmacPreset) => {
    try {
      resolveHmacHeaderNames(value, preset, 'bank.hmac.headers');
    } catch (error) {
      expect(error).toBeInstanceOf(BankOptionsError);
      return (error as Error).message;
    }
    throw new Error('the header names were accepted');
  };

  it('keeps the names given and leaves the others to the preset', () => {
    expect(resolveHmacHeaderNames(undefined, 'default', 'bank.hmac.headers')).toBeUndefined();
    expect(
      resolveHmacHeaderNames({ timestamp: 'X-Bank-Time', keyId: 'X-Bank-Key' }, 'default', 'bank.hmac.headers'),
    ).toEqual({ timestamp: 'X-Bank-Time', keyId: 'X-Bank-Key' });
    expect(resolveHmacHeaderNames({ signature: 'Sig' }, 'single-header', 'bank.hmac.headers')).toEqual({
      signature: 'Sig',
    });
  });

  it.each([
    ['not an object', 'X-Sig', 'bank.hmac.headers must be an object', 'default'],
    ['an unknown header', { nonce: 'X-Nonce' }, 'bank.hmac.headers.nonce is not an option', 'default'],
    ['an empty name', { signature: ' ' }, 'bank.hmac.headers.signature must be a non-empty string', 'default'],
    [
      'a name with a space',
      { signature: 'X Sig' },
      'bank.hmac.headers.signature must be an HTTP header name',
      'default',
    ],
    [
      'a name with a colon',
      { timestamp: 'X-Ts:' },
      'bank.hmac.headers.timestamp must be an HTTP header name',
      'default',
    ],
    [
      'a header the client sends itself',
      { signature: 'Authorization' },
      'bank.hmac.headers.signature must not be a header the client sends itself',
      'default',
    ],
    [
      'two headers of one name, whatever the case',
      { timestamp: 'X-Sig', signature: 'x-sig' },
      'bank.hmac.headers.signature must differ from the timestamp header (X-Sig)',
      'default',
    ],
    [
      "a name the preset's default already takes",
      { keyId: 'x-timestamp' },
      'bank.hmac.headers.keyId must differ from the timestamp header (X-Timestamp)',
      'default',
    ],
    [
      'a name the preset does not send',
      { keyId: 'X-Key' },
      'bank.hmac.headers.keyId is not used by the single-header preset (it sends signature only)',
      'single-header',
    ],
  ] as [string, unknown, string, HmacPreset][])('refuses %s', (_case, value, message, preset) => {
    expect(messageFor(value, preset)).toContain(message);
  });
});
