import type { IncomingMessage } from 'node:http';
import type { HmacScheme } from '../config/sandbox-config';
import type { SandboxCredentials } from '../config/sandbox-credentials';
import type { AccessTokens } from './access-tokens';
import { type AuthFailure, verifyHmac } from './hmac-verifier';

const AUTHORIZATION = /^(\S+) +(\S+)$/;

/**
 * Checks the access token and the HMAC of an API request (mutual TLS was already enforced by the TLS
 * layer). Returns why it is refused, or undefined when it may be processed.
 */
export function authenticateApiRequest(
  request: IncomingMessage,
  rawBody: Buffer,
  nowMs: number,
  credentials: SandboxCredentials,
  tokens: AccessTokens,
  hmac: HmacScheme,
): AuthFailure | undefined {
  const match = AUTHORIZATION.exec(request.headers.authorization ?? '');
  if (!match || match[1].toLowerCase() !== credentials.authScheme.toLowerCase()) {
    return { code: 'MISSING_TOKEN', message: `the Authorization header must be "${credentials.authScheme} <token>"` };
  }
  const tokenCheck = tokens.check(match[2], nowMs);
  if (tokenCheck === 'expired') return { code: 'TOKEN_EXPIRED', message: 'the access token has expired' };
  if (tokenCheck === 'unknown') return { code: 'INVALID_TOKEN', message: 'the access token is not valid' };

  return verifyHmac(
    {
      method: request.method ?? '',
      path: request.url ?? '',
      header: (name) => singleValue(request.headers[name.toLowerCase()]),
      rawBody,
    },
    credentials.hmacSecret,
    nowMs,
    hmac,
  );
}

const singleValue = (value: string | string[] | undefined) => (Array.isArray(value) ? undefined : value);
