import { inspect } from 'node:util';

const REDACTED = '[redacted]';

/**
 * A secret value (key, passphrase, HMAC secret, token) that does not show itself: JSON, `util.inspect`,
 * string conversion and template literals all print `[redacted]`. Only `reveal()` gives the value, and
 * only the code that puts it on the wire calls it.
 */
export class Secret {
  readonly #value: string;

  constructor(value: string) {
    this.#value = value;
  }

  reveal(): string {
    return this.#value;
  }

  toString(): string {
    return REDACTED;
  }

  toJSON(): string {
    return REDACTED;
  }

  [inspect.custom](): string {
    return `Secret(${REDACTED})`;
  }
}

/** Wraps a secret so that a configuration object holding it can be logged or serialised safely. */
export function secret(value: string): Secret {
  return new Secret(value);
}

/** A secret given either as a plain string or already wrapped. */
export type SecretInput = string | Secret;

export function toSecret(value: SecretInput): Secret {
  return value instanceof Secret ? value : new Secret(value);
}
