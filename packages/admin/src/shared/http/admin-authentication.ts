import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { type Actor, ApiKeyService, BOOTSTRAP_ADMIN_ACTOR } from '@giro/transfer-module';
import { Inject, Injectable, Optional } from '@nestjs/common';

/** Injection token of the admin bearer token (the module's `adminToken` option). */
export const ADMIN_TOKEN = Symbol('giro:AdminToken');

/** The name of the credential `Authorization: Bearer <adminToken>` authenticates as (the bootstrap admin). */
export const ADMIN_TOKEN_CREDENTIAL = BOOTSTRAP_ADMIN_ACTOR.name;

const BEARER = /^Bearer +(\S+) *$/i;

/**
 * Who an admin request is, from its `Authorization: Bearer …` header: the actor `{ keyId, name, role }` of the
 * credential it presents, or undefined when it presents none that is valid. Two kinds of credential:
 *
 * - the module's `adminToken` (ADMIN_TOKEN in the reconciler), the bootstrap admin (`BOOTSTRAP_ADMIN_ACTOR`). Both
 *   sides are hashed to fixed-length digests and compared with timingSafeEqual, so neither the content nor the
 *   length of the expected token shows in the response time;
 * - an API key (`giro_<keyId>_<secret>`), checked by the transfer module's ApiKeyService: stored, not revoked, its
 *   hash compared in constant time; a key revoked on any replica is refused here within a second.
 *
 * The answer is kept per request: the role guard, and an application that checks the credential earlier (before
 * reading the body, to pick a rate-limit budget), check it once. The actor is not a secret: an application may key
 * its rate limits or logs by its `keyId`.
 */
@Injectable()
export class AdminAuthentication {
  private readonly expectedDigest: Buffer;
  private readonly answers = new WeakMap<IncomingMessage, Promise<Actor | undefined>>();

  constructor(
    @Inject(ADMIN_TOKEN) adminToken: string,
    // Absent only when the host's TransferModule does not provide it (a stub in tests): then the token alone.
    @Optional() private readonly keys?: ApiKeyService,
  ) {
    this.expectedDigest = digest(adminToken);
  }

  /** The actor `request` authenticates as, or undefined. */
  authenticate(request: IncomingMessage): Promise<Actor | undefined> {
    let answer = this.answers.get(request);
    if (answer === undefined) {
      answer = this.check(presentedToken(request));
      this.answers.set(request, answer);
    }
    return answer;
  }

  private async check(presented: string | undefined): Promise<Actor | undefined> {
    if (presented === undefined) return undefined;
    if (timingSafeEqual(digest(presented), this.expectedDigest)) return { ...BOOTSTRAP_ADMIN_ACTOR };
    return this.keys?.authenticate(presented);
  }
}

/** The bearer token of `Authorization`, or undefined when the header is absent or of another scheme. */
export function presentedToken(request: IncomingMessage): string | undefined {
  return BEARER.exec(request.headers.authorization ?? '')?.[1];
}

function digest(token: string): Buffer {
  return createHash('sha256').update(token, 'utf8').digest();
}
