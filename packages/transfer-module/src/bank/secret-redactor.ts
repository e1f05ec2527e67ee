const REDACTED = '[redacted]';
const RECENT_TOKENS_KEPT = 4;

/**
 * Removes our own secrets from text we did not write — the bank's error messages, low-level error
 * messages — before it goes into an error. A server that echoes the Authorization header or the
 * client secret back must not make us leak them. Configured secrets are kept for the client's lifetime;
 * access tokens change, so only the last few seen on the wire are kept.
 */
export class SecretRedactor {
  readonly #configured = new Set<string>();
  readonly #recentTokens: string[] = [];

  addConfigured(value: string): void {
    if (value) this.#configured.add(value);
  }

  rememberToken(token: string): void {
    if (!token || this.#recentTokens.includes(token)) return;
    this.#recentTokens.push(token);
    if (this.#recentTokens.length > RECENT_TOKENS_KEPT) this.#recentTokens.shift();
  }

  redact(text: string): string {
    let result = text;
    for (const value of [...this.#configured, ...this.#recentTokens]) {
      if (result.includes(value)) result = result.split(value).join(REDACTED);
    }
    return result;
  }
}
