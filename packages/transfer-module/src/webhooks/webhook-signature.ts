import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

// Standard Webhooks (standardwebhooks.com): `webhook-id`, `webhook-timestamp` (seconds) and `webhook-signature`,
// `v1,<base64 HMAC-SHA256 of "id.timestamp.body">`, one per secret and space-separated during a rotation. The
// signing is the specification's own library, so that what a receiver verifies with it in any language is
// exactly what giro computes.

/** `whsec_` and 32 random bytes in base64, the form the standardwebhooks libraries take. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

const SECRET = /^whsec_[A-Za-z0-9+/]+={0,2}$/;

/** Why `value` cannot be a secret, or undefined when it can: `whsec_` and base64 of 24 to 64 bytes. */
export function explainWebhookSecret(value: unknown): string | undefined {
  if (typeof value !== 'string' || !SECRET.test(value)) return 'must be whsec_ followed by base64';
  const bytes = Buffer.from(value.slice('whsec_'.length), 'base64').length;
  if (bytes < 24 || bytes > 64) return `must encode 24 to 64 bytes, got ${bytes}`;
  return undefined;
}

const signers = new Map<string, Webhook>();

function signerFor(secret: string): Webhook {
  let signer = signers.get(secret);
  if (signer === undefined) {
    // A handful of endpoints: the key of each is decoded once, not per attempt.
    if (signers.size >= 256) signers.clear();
    signer = new Webhook(secret);
    signers.set(secret, signer);
  }
  return signer;
}

/** The three headers of one attempt, signed with every secret given (the current one first). */
export function signedHeaders(
  secrets: readonly string[],
  message: { id: string; payload: string; at: Date },
): Record<'webhook-id' | 'webhook-timestamp' | 'webhook-signature', string> {
  return {
    'webhook-id': message.id,
    'webhook-timestamp': String(Math.floor(message.at.getTime() / 1000)),
    'webhook-signature': secrets
      .map((secret) => signerFor(secret).sign(message.id, message.at, message.payload))
      .join(' '),
  };
}
