import { createHash, randomBytes } from 'node:crypto';
import { secretsEqual } from './constant-time';

export type TokenCheck = 'valid' | 'expired' | 'unknown';

/**
 * The static token plus the tokens issued by `POST /oauth/token`. Issued tokens are kept by their
 * sha-256 digest only, so looking one up leaks nothing about another through timing.
 */
export class AccessTokens {
  private issued = new Map<string, number>();

  constructor(
    private readonly staticToken: string,
    private readonly ttlSeconds: number,
  ) {}

  issue(nowMs: number): { token: string; expiresInSeconds: number } {
    this.forgetExpired(nowMs);
    const token = randomBytes(32).toString('base64url');
    this.issued.set(digest(token), nowMs + this.ttlSeconds * 1000);
    return { token, expiresInSeconds: this.ttlSeconds };
  }

  check(token: string, nowMs: number): TokenCheck {
    if (secretsEqual(token, this.staticToken)) return 'valid';
    const expiresAtMs = this.issued.get(digest(token));
    if (expiresAtMs === undefined) return 'unknown';
    return nowMs < expiresAtMs ? 'valid' : 'expired';
  }

  private forgetExpired(nowMs: number): void {
    for (const [key, expiresAtMs] of this.issued) {
      if (expiresAtMs <= nowMs) this.issued.delete(key);
    }
  }
}

const digest = (token: string) => createHash('sha256').update(token).digest('hex');
