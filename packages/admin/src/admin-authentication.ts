import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { Inject, Injectable } from '@nestjs/common';

/** Injection token of the admin bearer token (the module's `adminToken` option). */
export const ADMIN_TOKEN = Symbol('giro:AdminToken');

/** The name of the credential `Authorization: Bearer <adminToken>` authenticates as. */
export const ADMIN_TOKEN_CREDENTIAL = 'admin-token';

const BEARER = /^Bearer +(\S+) *$/i;

/**
 * Who an admin request is, from its `Authorization` header: the name of the credential it presents
 * (`admin-token`), or undefined when it presents none that is valid. Both sides are hashed to fixed-length
 * digests and compared with timingSafeEqual, so neither the content nor the length of the expected token shows
 * in the response time. The answer is kept per request: the bearer guard, and an application that checks the
 * token earlier (before reading the body, to pick a rate-limit budget), hash it once.
 *
 * The name is not a secret: an application may key its rate limits or logs by it.
 */
@Injectable()
export class AdminAuthentication {
  private readonly expectedDigest: Buffer;
  private readonly answers = new WeakMap<IncomingMessage, string | null>();

  constructor(@Inject(ADMIN_TOKEN) adminToken: string) {
    this.expectedDigest = digest(adminToken);
  }

  /** The credential `request` authenticates with, or undefined. */
  authenticate(request: IncomingMessage): string | undefined {
    let answer = this.answers.get(request);
    if (answer === undefined) {
      const presented = presentedToken(request);
      answer =
        presented !== undefined && timingSafeEqual(digest(presented), this.expectedDigest)
          ? ADMIN_TOKEN_CREDENTIAL
          : null;
      this.answers.set(request, answer);
    }
    return answer ?? undefined;
  }
}

/** The bearer token of `Authorization`, or undefined when the header is absent or of another scheme. */
export function presentedToken(request: IncomingMessage): string | undefined {
  return BEARER.exec(request.headers.authorization ?? '')?.[1];
}

function digest(token: string): Buffer {
  return createHash('sha256').update(token, 'utf8').digest();
}
