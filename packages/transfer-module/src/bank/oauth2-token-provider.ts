import type { Dispatcher } from 'undici';
import type { Clock } from '../domain';
import { BankAuthError, BankNotSentError, copyCause } from './bank.errors';
import { ExchangeFailure, type ExchangeResponse, exchange } from './bank-exchange';
import { describeFailure } from './bank-failure';
import { parseErrorBody } from './error-body';
import { isRecord, parseJson } from './json-value';
import type { Secret } from './secret';
import type { SecretRedactor } from './secret-redactor';
import type { TokenProvider } from './token-provider';

export const OAUTH2_CLIENT_AUTHENTICATIONS = ['basic', 'body'] as const;
/** RFC 6749 §2.3.1: HTTP Basic (which every server must accept) or `client_id`/`client_secret` in the form. */
export type OAuth2ClientAuthentication = (typeof OAUTH2_CLIENT_AUTHENTICATIONS)[number];

export interface OAuth2ClientCredentials {
  /** https URL of the token endpoint. */
  tokenUrl: string;
  clientId: string;
  clientSecret: Secret;
  scope?: string;
  clientAuthentication: OAuth2ClientAuthentication;
  /** A token is replaced this long before its `expires_in` runs out (at most half its lifetime). */
  refreshMarginMs: number;
}

export interface OAuth2Transport {
  /** The bank's dispatcher (mutual TLS, proxy), without the signing and token interceptors. */
  dispatcher: Dispatcher;
  clock: Clock;
  maxResponseBytes: number;
  redactor: SecretRedactor;
}

interface CachedToken {
  token: string;
  /** Epoch ms after which the token is fetched again; absent when the server gave no `expires_in`. */
  refreshAt?: number;
}

// Visible ASCII only: the token goes into a header line.
const TOKEN_PATTERN = /^[\x21-\x7e]+$/;

/**
 * OAuth2 client credentials grant (RFC 6749 §4.4). The token is cached until shortly before it expires
 * (or, without `expires_in`, until the bank refuses it); however many requests want a token at once,
 * one token request is in flight.
 */
export class OAuth2ClientCredentialsProvider implements TokenProvider {
  readonly #credentials: OAuth2ClientCredentials;
  readonly #transport: OAuth2Transport;
  #cached?: CachedToken;
  #inflight?: Promise<string>;

  constructor(credentials: OAuth2ClientCredentials, transport: OAuth2Transport) {
    this.#credentials = credentials;
    this.#transport = transport;
  }

  getToken(): Promise<string> {
    const cached = this.#cached;
    if (cached && (cached.refreshAt === undefined || this.#transport.clock.now().getTime() < cached.refreshAt)) {
      return Promise.resolve(cached.token);
    }
    this.#inflight ??= this.#fetchToken().finally(() => {
      this.#inflight = undefined;
    });
    return this.#inflight;
  }

  invalidate(token: string): void {
    if (this.#cached?.token === token) this.#cached = undefined;
  }

  async #fetchToken(): Promise<string> {
    const requestedAt = this.#transport.clock.now().getTime();
    const response = await this.#requestToken();
    const body = this.#parseTokenAnswer(response);
    const cached: CachedToken = { token: body.accessToken };
    if (body.lifetimeMs !== undefined) {
      const margin = Math.min(this.#credentials.refreshMarginMs, body.lifetimeMs / 2);
      cached.refreshAt = requestedAt + body.lifetimeMs - margin;
    }
    this.#cached = cached;
    return cached.token;
  }

  async #requestToken(): Promise<ExchangeResponse> {
    const { tokenUrl, clientId, clientSecret, scope, clientAuthentication } = this.#credentials;
    const url = new URL(tokenUrl);
    const form = new URLSearchParams({ grant_type: 'client_credentials' });
    if (scope !== undefined) form.set('scope', scope);
    const headers: Record<string, string> = {
      'content-type': 'application/x-www-form-urlencoded',
      accept: 'application/json',
    };
    if (clientAuthentication === 'basic') {
      // RFC 6749 §2.3.1: both parts form-urlencoded before the Basic encoding.
      const pair = `${formEncode(clientId)}:${formEncode(clientSecret.reveal())}`;
      headers.authorization = `Basic ${Buffer.from(pair).toString('base64')}`;
    } else {
      form.set('client_id', clientId);
      form.set('client_secret', clientSecret.reveal());
    }
    const redact = (text: string) => this.#transport.redactor.redact(text);
    try {
      return await exchange(
        this.#transport.dispatcher,
        { origin: url.origin, path: `${url.pathname}${url.search}`, headers, body: Buffer.from(form.toString()) },
        this.#transport.maxResponseBytes,
      );
    } catch (error) {
      const cause = error instanceof ExchangeFailure ? error.reason : error;
      throw new BankNotSentError(`the access token could not be obtained: ${redact(describeFailure(cause))}`, {
        operation: 'token',
        cause: copyCause(cause, redact),
      });
    }
  }

  #parseTokenAnswer(response: ExchangeResponse): { accessToken: string; lifetimeMs?: number } {
    const redact = (text: string) => this.#transport.redactor.redact(text);
    if (response.status < 200 || response.status > 299) {
      const { code, message } = parseErrorBody(response.body);
      const details = {
        operation: 'token' as const,
        httpStatus: response.status,
        ...(code !== undefined && { bankCode: redact(code) }),
        ...(message !== undefined && { bankMessage: redact(message) }),
      };
      const summary = `HTTP ${response.status}${code ? `, ${redact(code)}` : ''}${message ? `: ${redact(message)}` : ''}`;
      // 400 (invalid_client, invalid_grant, …), 401 and 403 refuse our credentials; anything else is the endpoint failing.
      if (response.status === 400 || response.status === 401 || response.status === 403) {
        throw new BankAuthError(`the token endpoint refused the client credentials (${summary})`, details);
      }
      throw new BankNotSentError(`the access token could not be obtained (${summary})`, details);
    }
    const json = response.truncated ? undefined : parseJson(response.body.toString('utf8'));
    const accessToken = isRecord(json) ? json.access_token : undefined;
    if (typeof accessToken !== 'string' || !TOKEN_PATTERN.test(accessToken)) {
      throw new BankNotSentError('the token endpoint answered without a usable access_token', {
        operation: 'token',
        httpStatus: response.status,
      });
    }
    const expiresIn = isRecord(json) ? Number(json.expires_in) : Number.NaN;
    return Number.isFinite(expiresIn) && expiresIn > 0
      ? { accessToken, lifetimeMs: expiresIn * 1000 }
      : { accessToken };
  }
}

function formEncode(value: string): string {
  return new URLSearchParams({ v: value }).toString().slice(2);
}
