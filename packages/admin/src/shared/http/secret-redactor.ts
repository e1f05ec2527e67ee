import { redactApiKeys } from '@giro/transfer-module';

/** What a secret is replaced with: a reader still sees that one was there. */
export const REDACTED = '[redacted]';

/** Shorter secrets are not searched for: they would match ordinary text (the admin token has at least 16). */
const MIN_SECRET_LENGTH = 8;

/**
 * Removes the admin API's credentials from text a client chose — a path, a query, a header, a field name — before
 * it is logged, echoed in a response header or kept in the audit trail: the given secrets (the admin token) and
 * the secret part of anything shaped like an API key (`giro_<keyId>_[redacted]`, the id stays to tell keys apart).
 * A secret percent-encoded in a URL is found too (the text is then kept decoded).
 */
export class SecretRedactor {
  private readonly secrets: readonly string[];

  constructor(secrets: readonly string[]) {
    this.secrets = secrets.filter((secret) => secret.length >= MIN_SECRET_LENGTH);
  }

  redact(text: string): string {
    const redacted = this.replace(text);
    const decoded = percentDecoded(redacted);
    return decoded !== redacted && this.replace(decoded) !== decoded ? this.replace(decoded) : redacted;
  }

  /**
   * `value` with every string in it redacted, down to `maxDepth` levels of plain objects, arrays and errors;
   * copies are made only where something changed, anything else (a request, a socket) is returned as it is.
   */
  redactIn<T>(value: T, maxDepth = 4): T {
    if (typeof value === 'string') return this.redact(value) as T;
    if (maxDepth <= 0 || typeof value !== 'object' || value === null) return value;
    if (Array.isArray(value)) {
      const items = value.map((item) => this.redactIn(item, maxDepth - 1));
      return (items.some((item, index) => item !== value[index]) ? items : value) as T;
    }
    if (value instanceof Error) return this.redactError(value) as T;
    const prototype = Object.getPrototypeOf(value);
    // Plain objects only, those without a prototype included (Express's route `params`).
    if (prototype !== Object.prototype && prototype !== null) return value;
    let changed = false;
    const entries = Object.entries(value).map(([key, item]) => {
      const redacted = this.redactIn(item, maxDepth - 1);
      if (redacted !== item) changed = true;
      return [key, redacted];
    });
    return (changed ? Object.fromEntries(entries) : value) as T;
  }

  private redactError(error: Error): Error {
    const message = this.redact(error.message);
    const stack = error.stack === undefined ? undefined : this.redact(error.stack);
    if (message === error.message && stack === error.stack) return error;
    const copy = Object.assign(Object.create(Object.getPrototypeOf(error)), error, { message }) as Error;
    if (stack !== undefined) copy.stack = stack;
    return copy;
  }

  private replace(text: string): string {
    let result = redactApiKeys(text, REDACTED);
    for (const secret of this.secrets) result = result.split(secret).join(REDACTED);
    return result;
  }
}

/** Every run of `%XX` escapes decoded as UTF-8; a malformed escape elsewhere does not stop the others. */
function percentDecoded(text: string): string {
  return text.replace(/(?:%[0-9a-fA-F]{2})+/g, (run) => Buffer.from(run.replace(/%/g, ''), 'hex').toString('utf8'));
}
