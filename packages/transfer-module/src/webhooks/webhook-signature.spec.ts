import { createHmac } from 'node:crypto';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { explainWebhookSecret, newWebhookSecret, signedHeaders } from './webhook-signature';

// Signatures as a receiver checks them: with the standardwebhooks library, and against a known answer.

/** The example of the Standard Webhooks specification and its libraries' tests. */
const KNOWN = {
  secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  id: 'msg_p5jXN8AQM9LWM0D4loKWxJek',
  timestampSeconds: 1614265330,
  payload: '{"test": 2432232314}',
  signature: 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
};

function hmac(secret: string, id: string, seconds: number, payload: string): string {
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${seconds}.${payload}`).digest('base64')}`;
}

describe('signedHeaders', () => {
  it('gives the known answer of the specification', () => {
    const headers = signedHeaders([KNOWN.secret], {
      id: KNOWN.id,
      payload: KNOWN.payload,
      at: new Date(KNOWN.timestampSeconds * 1000 + 999),
    });
    expect(headers).toEqual({
      'webhook-id': KNOWN.id,
      'webhook-timestamp': String(KNOWN.timestampSeconds),
      'webhook-signature': KNOWN.signature,
    });
    // Computed by hand: HMAC-SHA256 of "id.timestamp.body" with the base64-decoded secret.
    expect(hmac(KNOWN.secret, KNOWN.id, KNOWN.timestampSeconds, KNOWN.payload)).toBe(KNOWN.signature);
  });

  it('is verified by the standardwebhooks library, and a changed body, id or time is not', () => {
    const secret = newWebhookSecret();
    const payload = JSON.stringify({ type: 'transfer.completed', data: { originId: 7 } });
    const headers = signedHeaders([secret], { id: 'msg_one', payload, at: new Date() });
    expect(new Webhook(secret).verify(payload, headers)).toEqual(JSON.parse(payload));
    expect(() => new Webhook(secret).verify(payload.replace('7', '8'), headers)).toThrow(WebhookVerificationError);
    expect(() => new Webhook(secret).verify(payload, { ...headers, 'webhook-id': 'msg_two' })).toThrow(
      WebhookVerificationError,
    );
    const earlier = String(Number(headers['webhook-timestamp']) - 1);
    expect(() => new Webhook(secret).verify(payload, { ...headers, 'webhook-timestamp': earlier })).toThrow(
      WebhookVerificationError,
    );
    expect(() => new Webhook(newWebhookSecret()).verify(payload, headers)).toThrow(WebhookVerificationError);
  });

  it('signs with both secrets during a rotation: a receiver holding either verifies', () => {
    const current = newWebhookSecret();
    const previous = newWebhookSecret();
    const payload = '{"type":"transfer.created"}';
    const at = new Date();
    const headers = signedHeaders([current, previous], { id: 'msg_rotated', payload, at });
    const signatures = headers['webhook-signature'].split(' ');
    expect(signatures).toHaveLength(2);
    const seconds = Math.floor(at.getTime() / 1000);
    expect(signatures).toEqual([
      hmac(current, 'msg_rotated', seconds, payload),
      hmac(previous, 'msg_rotated', seconds, payload),
    ]);
    expect(new Webhook(current).verify(payload, headers)).toEqual(JSON.parse(payload));
    expect(new Webhook(previous).verify(payload, headers)).toEqual(JSON.parse(payload));
    expect(() => new Webhook(newWebhookSecret()).verify(payload, headers)).toThrow(WebhookVerificationError);
  });
});

describe('newWebhookSecret', () => {
  it('is whsec_ and 32 random bytes, a secret the checks and the library accept', () => {
    const secret = newWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(32);
    expect(explainWebhookSecret(secret)).toBeUndefined();
    expect(() => new Webhook(secret)).not.toThrow();
    expect(newWebhookSecret()).not.toBe(secret);
  });
});

describe('explainWebhookSecret', () => {
  const ofBytes = (count: number) => `whsec_${Buffer.alloc(count, 7).toString('base64')}`;

  it('accepts whsec_ and the base64 of 24 to 64 bytes', () => {
    expect(explainWebhookSecret(KNOWN.secret)).toBeUndefined();
    expect(explainWebhookSecret(ofBytes(24))).toBeUndefined();
    expect(explainWebhookSecret(ofBytes(64))).toBeUndefined();
  });

  it('refuses a secret too short or too long', () => {
    expect(explainWebhookSecret(ofBytes(23))).toBe('must encode 24 to 64 bytes, got 23');
    expect(explainWebhookSecret(ofBytes(65))).toBe('must encode 24 to 64 bytes, got 65');
  });

  it('refuses what is not whsec_ and base64', () => {
    for (const value of [
      undefined,
      42,
      '',
      'whsec_',
      Buffer.alloc(32).toString('base64'),
      `wh_${Buffer.alloc(32).toString('base64')}`,
      `whsec_${Buffer.alloc(32).toString('base64url').replace(/^./, '-')}`,
      `whsec_${Buffer.alloc(32).toString('base64')} `,
      `whsec_${Buffer.alloc(32).toString('base64')}===`,
    ]) {
      expect([value, explainWebhookSecret(value)]).toEqual([value, 'must be whsec_ followed by base64']);
    }
  });
});
