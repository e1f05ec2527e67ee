import { signedHeaders } from '@giro/transfer-module/webhooks/webhook-signature';
import { verifyWebhook, WebhookVerificationError } from './verify-webhook';

// verifyWebhook against giro's own signer (the dispatcher's signedHeaders): what giro signs verifies, typed by its
// `type`; a changed byte, another secret or a stale timestamp does not.

const SECRET = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
const OTHER_SECRET = `whsec_${Buffer.alloc(32, 8).toString('base64')}`;
const BODY = JSON.stringify({
  type: 'webhook.test',
  timestamp: '2026-11-29T01:00:00.000Z',
  data: { endpointId: 'ep_1', message: 'hola' },
});

describe('verifyWebhook', () => {
  const signed = (at = new Date(), secrets = [SECRET]) => signedHeaders(secrets, { id: 'msg_1', payload: BODY, at });

  it('returns the event giro signed, typed by its type, from Node headers or fetch Headers', () => {
    const event = verifyWebhook(BODY, signed(), SECRET);
    expect(event.type).toBe('webhook.test');
    if (event.type === 'webhook.test') expect(event.data.endpointId).toBe('ep_1');
    expect(verifyWebhook(Buffer.from(BODY), new Headers(signed()), SECRET)).toEqual(JSON.parse(BODY));
  });

  it('accepts either signature during a secret rotation', () => {
    expect(verifyWebhook(BODY, signed(new Date(), [OTHER_SECRET, SECRET]), SECRET).type).toBe('webhook.test');
  });

  it('refuses a changed body, another secret, a stale timestamp and missing headers', () => {
    expect(() => verifyWebhook(BODY.replace('hola', 'chau'), signed(), SECRET)).toThrow(WebhookVerificationError);
    expect(() => verifyWebhook(BODY, signed(), OTHER_SECRET)).toThrow(WebhookVerificationError);
    const tenMinutesAgo = new Date(Date.now() - 10 * 60_000);
    expect(() => verifyWebhook(BODY, signed(tenMinutesAgo), SECRET)).toThrow(WebhookVerificationError);
    expect(() => verifyWebhook(BODY, {}, SECRET)).toThrow(WebhookVerificationError);
  });

  it('refuses a signed body that is not an event', () => {
    const headers = signedHeaders([SECRET], { id: 'msg_2', payload: '[1]', at: new Date() });
    expect(() => verifyWebhook('[1]', headers, SECRET)).toThrow('not a giro event');
  });
});
