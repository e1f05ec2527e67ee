import type { IncomingMessage, ServerResponse } from 'node:http';
import { BodyTooLargeError, type JsonReply, mediaTypeOf, parseJson, readBody, sendJson } from '../server/http-io';
import type { SandboxState } from '../server/sandbox-state';
import { secretsEqual } from './constant-time';

export const OAUTH_TOKEN_PATH = '/oauth/token';

const NO_STORE = { 'cache-control': 'no-store', pragma: 'no-cache' };

/** An RFC 6749 §5.2 error answer. */
function oauthError(status: number, error: string, description: string, headers: Record<string, string> = {}) {
  return { status, body: { error, error_description: description }, headers: { ...NO_STORE, ...headers } };
}

/**
 * `POST /oauth/token`, the client-credentials grant of RFC 6749 §4.4: the client authenticates with
 * HTTP Basic or with `client_id`/`client_secret` in the body (form or JSON) and receives a token that
 * expires after the configured TTL.
 */
export async function handleOAuthToken(
  state: SandboxState,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  const reply = await tokenReply(state, request);
  state.counters.request('oauth-token', reply.status === 200 ? 'issued' : (reply.body as { error: string }).error);
  sendJson(response, reply);
}

async function tokenReply(state: SandboxState, request: IncomingMessage): Promise<JsonReply> {
  if (request.method !== 'POST') return oauthError(405, 'invalid_request', 'the token endpoint accepts POST only');
  let raw: Buffer;
  try {
    raw = await readBody(request, state.maxBodyBytes);
  } catch (error) {
    if (error instanceof BodyTooLargeError) return oauthError(413, 'invalid_request', error.message);
    throw error;
  }
  const params = readParams(mediaTypeOf(request), raw);
  if (!params) {
    return oauthError(400, 'invalid_request', 'send an application/x-www-form-urlencoded or application/json body');
  }
  if (params.grant_type !== 'client_credentials') {
    return oauthError(400, 'unsupported_grant_type', 'only grant_type=client_credentials is supported');
  }

  const basic = readBasicCredentials(request.headers.authorization);
  const client = basic ?? { id: params.client_id, secret: params.client_secret };
  const { credentials } = state;
  // Both compared every time, so the answer time does not tell which of the two was wrong.
  const idMatches = secretsEqual(String(client.id ?? ''), credentials.clientId);
  const secretMatches = secretsEqual(String(client.secret ?? ''), credentials.clientSecret);
  if (!(typeof client.id === 'string' && typeof client.secret === 'string' && idMatches && secretMatches)) {
    const challenge = basic ? { 'www-authenticate': 'Basic realm="sandbox-bank"' } : undefined;
    return oauthError(401, 'invalid_client', 'client authentication failed', challenge);
  }

  const { token, expiresInSeconds } = state.tokens.issue(state.nowMs());
  return {
    status: 200,
    body: { access_token: token, token_type: credentials.authScheme, expires_in: expiresInSeconds },
    headers: NO_STORE,
  };
}

function readParams(mediaType: string, raw: Buffer): Record<string, unknown> | undefined {
  if (mediaType === 'application/x-www-form-urlencoded') {
    return Object.fromEntries(new URLSearchParams(raw.toString('utf8')));
  }
  if (mediaType === 'application/json') {
    const parsed = parseJson(raw);
    const value = parsed.ok ? parsed.value : undefined;
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  }
  return undefined;
}

/** RFC 6749 §2.3.1: `Basic base64(urlencode(id) ":" urlencode(secret))`. */
function readBasicCredentials(header: string | undefined): { id: string; secret: string } | undefined {
  const match = /^basic +(\S+)$/i.exec(header ?? '');
  if (!match) return undefined;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return { id: '', secret: '' };
  try {
    return { id: formDecode(decoded.slice(0, colon)), secret: formDecode(decoded.slice(colon + 1)) };
  } catch {
    return { id: '', secret: '' };
  }
}

const formDecode = (value: string) => decodeURIComponent(value.replace(/\+/g, ' '));
