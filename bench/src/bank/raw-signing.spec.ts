import { verifyHmac } from '@giro/sandbox-bank/auth/hmac-verifier';
import { DEFAULT_SANDBOX_CONFIG, type HmacScheme } from '@giro/sandbox-bank/config/sandbox-config';
import { planFromArgs, UsageError } from '../options';
import { signedHeaders, TRANSFER_REQUEST_PATH } from './raw-signing';

// The bench's hand-written signing, checked by the sandbox bank's own verifier (written apart from giro's signers
// and from this one): each preset, with the key id the sandbox requires, is accepted; a mismatch is refused.

const NOW_MS = 1_764_000_000_000;
const body = '{"originId":1,"body":{"amount":10}}';
const sign = (hmac: Parameters<typeof signedHeaders>[0]['hmac']) =>
  signedHeaders({
    path: TRANSFER_REQUEST_PATH,
    body,
    token: 't',
    hmacSecret: 'sandbox-hmac-secret',
    hmac,
    nowMs: NOW_MS,
  });
const verify = (headers: Record<string, string>, scheme: HmacScheme) =>
  verifyHmac(
    {
      method: 'POST',
      path: TRANSFER_REQUEST_PATH,
      header: (name) => headers[name.toLowerCase()],
      rawBody: Buffer.from(body),
    },
    'sandbox-hmac-secret',
    NOW_MS,
    scheme,
  );

describe("the bench's raw signing", () => {
  const singleHeader: HmacScheme = {
    ...DEFAULT_SANDBOX_CONFIG.hmac,
    preset: 'single-header',
    signatureHeader: 'Signature',
    keyId: 'bench-key',
  };

  it('signs the default scheme and, with a key id, names it in X-Key-Id', () => {
    expect(verify(sign(undefined), DEFAULT_SANDBOX_CONFIG.hmac)).toBeUndefined();
    const keyed = { ...DEFAULT_SANDBOX_CONFIG.hmac, keyId: 'bench-key' };
    expect(verify(sign({ preset: 'default', keyId: 'bench-key' }), keyed)).toBeUndefined();
    expect(verify(sign({ preset: 'default' }), keyed)).toMatchObject({ code: 'UNKNOWN_KEY_ID' });
  });

  it('signs the single-header preset with its key id, which a sandbox requiring it accepts', () => {
    const headers = sign({ preset: 'single-header', keyId: 'bench-key' });
    expect(headers.signature).toMatch(/^keyId=bench-key,ts=1764000000,sig=[A-Za-z0-9+/]+=*$/);
    expect(headers['x-signature']).toBeUndefined();
    expect(verify(headers, singleHeader)).toBeUndefined();
    expect(verify(sign({ preset: 'single-header', keyId: 'other' }), singleHeader)).toMatchObject({
      code: 'UNKNOWN_KEY_ID',
    });
    expect(verify(sign({ preset: 'default', keyId: 'bench-key' }), singleHeader)).toMatchObject({
      code: 'MISSING_SIGNATURE',
    });
  });

  it('is chosen with --hmac-preset, single-header with a key id', () => {
    expect(planFromArgs([]).hmac).toEqual({ preset: 'default' });
    expect(planFromArgs(['--quick', '--hmac-preset', 'single-header']).hmac).toEqual({
      preset: 'single-header',
      keyId: 'bench-key',
    });
    expect(() => planFromArgs(['--hmac-preset', 'aws'])).toThrow(UsageError);
  });
});
