import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import type { GiroWebhookEvent } from './webhook-events';

export { WebhookVerificationError };

/** Request headers as Node's `IncomingMessage` has them, or a fetch `Headers`. */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

const SIGNATURE_HEADERS = ['webhook-id', 'webhook-timestamp', 'webhook-signature'] as const;

/**
 * Checks a delivery's Standard Webhooks signature (`webhook-signature` over `webhook-id`, `webhook-timestamp` and the
 * body, with the endpoint's `whsec_…` secret; a timestamp more than five minutes away is refused) and returns its
 * event, typed by `type`. `body` must be the raw bytes as received, not a re-serialised object. Throws
 * WebhookVerificationError when the signature, a header or the timestamp is wrong. Deduplicate on `webhook-id`:
 * the same event may come again.
 */
export function verifyWebhook(body: string | Buffer, headers: WebhookHeaders, secret: string): GiroWebhookEvent {
  const event = new Webhook(secret).verify(body, signatureHeaders(headers));
  if (typeof event !== 'object' || event === null || typeof (event as { type?: unknown }).type !== 'string') {
    throw new WebhookVerificationError('the body is not a giro event');
  }
  return event as GiroWebhookEvent;
}

function signatureHeaders(headers: WebhookHeaders): Record<string, string> {
  const read = (name: string): string | undefined => {
    if (headers instanceof Headers) return headers.get(name) ?? undefined;
    const value = headers[name] ?? headers[Object.keys(headers).find((key) => key.toLowerCase() === name) ?? ''];
    return Array.isArray(value) ? value.join(' ') : value;
  };
  const found: Record<string, string> = {};
  for (const name of SIGNATURE_HEADERS) {
    const value = read(name);
    if (value !== undefined) found[name] = value;
  }
  return found;
}
