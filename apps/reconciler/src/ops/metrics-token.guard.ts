import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type CanActivate, type ExecutionContext, Inject, Injectable, UnauthorizedException } from '@nestjs/common';

/** Injection token of METRICS_TOKEN (undefined: `/metrics` is open). */
export const METRICS_TOKEN = Symbol('METRICS_TOKEN');

const BEARER = /^Bearer +(\S+) *$/i;

/**
 * `Authorization: Bearer <METRICS_TOKEN>` on `/metrics` when METRICS_TOKEN is set (Prometheus:
 * `authorization: { credentials: … }`): the metrics show business volumes. Compared in constant time (both sides
 * hashed). Unset, `/metrics` stays open.
 */
@Injectable()
export class MetricsTokenGuard implements CanActivate {
  private readonly expectedDigest: Buffer | undefined;

  constructor(@Inject(METRICS_TOKEN) token: string | undefined) {
    this.expectedDigest = token === undefined ? undefined : digest(token);
  }

  canActivate(context: ExecutionContext): boolean {
    if (this.expectedDigest === undefined) return true;
    const http = context.switchToHttp();
    const presented = BEARER.exec(http.getRequest<IncomingMessage>().headers.authorization ?? '')?.[1];
    if (presented !== undefined && timingSafeEqual(digest(presented), this.expectedDigest)) return true;
    http.getResponse<ServerResponse>().setHeader('WWW-Authenticate', 'Bearer realm="giro-metrics"');
    throw new UnauthorizedException('/metrics needs Authorization: Bearer <METRICS_TOKEN>');
  }
}

function digest(token: string): Buffer {
  return createHash('sha256').update(token, 'utf8').digest();
}
