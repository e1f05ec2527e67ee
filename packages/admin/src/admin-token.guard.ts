import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type CanActivate, type ExecutionContext, Inject, Injectable, UnauthorizedException } from '@nestjs/common';

/** Injection token of the admin bearer token (the module's `adminToken` option). */
export const ADMIN_TOKEN = Symbol('giro:AdminToken');

const BEARER = /^Bearer +(\S+) *$/i;

/**
 * `Authorization: Bearer <adminToken>` on every admin route; 401 otherwise. Both sides are hashed to
 * fixed-length digests and compared with timingSafeEqual, so neither the content nor the length of the
 * expected token shows in the response time.
 */
@Injectable()
export class AdminTokenGuard implements CanActivate {
  private readonly expectedDigest: Buffer;

  constructor(@Inject(ADMIN_TOKEN) adminToken: string) {
    this.expectedDigest = digest(adminToken);
  }

  canActivate(context: ExecutionContext): boolean {
    const http = context.switchToHttp();
    const header = http.getRequest<IncomingMessage>().headers.authorization ?? '';
    const presented = BEARER.exec(header)?.[1];
    if (presented !== undefined && timingSafeEqual(digest(presented), this.expectedDigest)) return true;
    http.getResponse<ServerResponse>().setHeader('WWW-Authenticate', 'Bearer realm="giro-admin"');
    throw new UnauthorizedException(
      presented === undefined ? 'missing bearer token (Authorization: Bearer <ADMIN_TOKEN>)' : 'invalid bearer token',
    );
  }
}

function digest(token: string): Buffer {
  return createHash('sha256').update(token, 'utf8').digest();
}
