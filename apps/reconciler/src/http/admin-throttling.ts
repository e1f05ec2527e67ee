import type { IncomingMessage } from 'node:http';
import type { AdminAuthentication } from '@giro/admin';
import type { ExecutionContext } from '@nestjs/common';
import { normalizeIp, type ThrottlerModuleOptions } from '@nestjs/throttler';

export interface AdminRateLimits {
  /** Requests one credential (the admin token) may make per minute, from any address. */
  perCredential: number;
  /** Requests without a valid credential one client address may make per minute. */
  unauthenticated: number;
}

const MINUTE_MS = 60_000;

/**
 * Two budgets, chosen after the request's token was checked (AdminAuthentication): an authenticated request counts
 * against its credential's budget wherever it comes from, a request without a valid token against its address's
 * unauthenticated budget, which is stricter. So token-less requests, however many, never use up the token's
 * budget, and guessing the token is slow. Each budget covers every route. The address is the client's as Express
 * sees it, i.e. behind trusted proxies (TRUST_PROXY) the one they forwarded; IPv6 clients by their /56.
 */
export function adminThrottlerOptions(
  authentication: AdminAuthentication,
  limits: AdminRateLimits,
): ThrottlerModuleOptions {
  const credentialOf = (request: IncomingMessage) => authentication.authenticate(request);
  const requestOf = (context: ExecutionContext) => context.switchToHttp().getRequest<IncomingMessage>();
  return {
    throttlers: [
      {
        ttl: MINUTE_MS,
        limit: (context) =>
          credentialOf(requestOf(context)) === undefined ? limits.unauthenticated : limits.perCredential,
      },
    ],
    getTracker: (request) => {
      const credential = credentialOf(request as IncomingMessage);
      return credential === undefined ? `address:${normalizeIp(String(request.ip))}` : `credential:${credential}`;
    },
    // One budget across routes (the throttler's default key is per route handler).
    generateKey: (_context, tracker, throttler) => `${throttler}:${tracker}`,
    errorMessage: (context, detail) =>
      `too many requests: ${detail.limit} a minute ${
        credentialOf(requestOf(context)) === undefined ? 'from one address without a valid token' : 'with this token'
      }; retry after ${detail.timeToBlockExpire} s`,
  };
}
