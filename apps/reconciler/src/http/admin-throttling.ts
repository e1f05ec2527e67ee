import type { IncomingMessage } from 'node:http';
import type { AdminAuthentication } from '@giro/admin';
import type { ExecutionContext } from '@nestjs/common';
import { normalizeIp, type ThrottlerModuleOptions } from '@nestjs/throttler';

export interface AdminRateLimits {
  /** Requests one credential (an API key, or the admin token) may make per minute, from any address. */
  perCredential: number;
  /** Requests without a valid credential one client address may make per minute. */
  unauthenticated: number;
}

const MINUTE_MS = 60_000;

/**
 * Two budgets, chosen after the request's credential was checked (AdminAuthentication): an authenticated request
 * counts against its credential's budget — one per API key (by its id; revoked or not, a key keeps its own), one for
 * the admin token — wherever it comes from; a request without a valid credential counts against its address's
 * unauthenticated budget, which is stricter. So requests without a credential, however many, never use up a key's
 * budget, and guessing one is slow. Each budget covers every route. The address is the client's as Express sees it,
 * i.e. behind trusted proxies (TRUST_PROXY) the one they forwarded; IPv6 clients by their /56.
 */
export function adminThrottlerOptions(
  authentication: AdminAuthentication,
  limits: AdminRateLimits,
): ThrottlerModuleOptions {
  const actorOf = (request: IncomingMessage) => authentication.authenticate(request);
  const requestOf = (context: ExecutionContext) => context.switchToHttp().getRequest<IncomingMessage>();
  return {
    throttlers: [
      {
        ttl: MINUTE_MS,
        limit: async (context) =>
          (await actorOf(requestOf(context))) === undefined ? limits.unauthenticated : limits.perCredential,
      },
    ],
    getTracker: async (request) => {
      const actor = await actorOf(request as IncomingMessage);
      return actor === undefined
        ? `${ADDRESS_TRACKER}${normalizeIp(String(request.ip))}`
        : `${CREDENTIAL_TRACKER}${actor.keyId}`;
    },
    // One budget across routes (the throttler's default key is per route handler).
    generateKey: (_context, tracker, throttler) => `${throttler}:${tracker}`,
    errorMessage: (_context, detail) =>
      `too many requests: ${detail.limit} a minute ${
        detail.tracker.startsWith(CREDENTIAL_TRACKER) ? 'with this token' : 'from one address without a valid token'
      }; retry after ${detail.timeToBlockExpire} s`,
  };
}

const ADDRESS_TRACKER = 'address:';
const CREDENTIAL_TRACKER = 'credential:';
