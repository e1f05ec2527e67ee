import { createHash, createHmac } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { request } from 'node:https';
import type { Clock } from '@giro/transfer-module';

// A deliberately small client for the sandbox's own tests: plain node:https, one connection per request,
// and an HMAC helper of its own, so the sandbox is checked against the written scheme rather than
// against giro's signer.

export interface ClientTls {
  ca: string;
  cert?: string;
  key?: string;
}

export interface ClientAuth {
  token: string;
  hmacSecret: string;
  scheme?: string;
  algorithm?: 'sha256' | 'sha512';
}

export interface TestResponse {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  /** The parsed body; undefined when it is not JSON. */
  // biome-ignore lint/suspicious/noExplicitAny: tests read answers field by field and assert on them
  json: any;
}

export interface PostOptions {
  /** `null` sends no Authorization header. */
  token?: string | null;
  /** `false` sends no X-Timestamp/X-Signature. */
  sign?: boolean;
  /** Unix seconds; default the client clock's now. */
  timestamp?: number;
  hmacSecret?: string;
  algorithm?: 'sha256' | 'sha512';
  /** Signs this body but sends the real one: a tampered request. */
  signedBody?: string;
  /** Sent as is instead of JSON.stringify(body). */
  rawBody?: string;
  /** Set last: they replace the computed ones. */
  headers?: Record<string, string>;
  /** Gives up (rejects) after this long. */
  timeoutMs?: number;
}

/**
 * The default HMAC scheme (docs/bank-api.md#the-default-hmac-scheme):
 * base64(HMAC(secret, `METHOD\nPATH\nTIMESTAMP\nhex(sha256(body))`)).
 */
export function signRequest(options: {
  method: string;
  path: string;
  timestamp: number;
  body: string;
  secret: string;
  algorithm?: 'sha256' | 'sha512';
}): string {
  const bodyDigest = createHash('sha256').update(options.body).digest('hex');
  return createHmac(options.algorithm ?? 'sha256', options.secret)
    .update(`${options.method}\n${options.path}\n${options.timestamp}\n${bodyDigest}`)
    .digest('base64');
}

export class SignedHttpsClient {
  constructor(
    readonly baseUrl: string,
    private readonly tls: ClientTls,
    private readonly auth: ClientAuth,
    private readonly clock: Clock,
  ) {}

  withTls(tls: ClientTls): SignedHttpsClient {
    return new SignedHttpsClient(this.baseUrl, tls, this.auth, this.clock);
  }

  /** A signed API request (token + HMAC unless told otherwise). */
  post(path: string, body: unknown, options: PostOptions = {}): Promise<TestResponse> {
    const text = options.rawBody ?? JSON.stringify(body);
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    const token = options.token === undefined ? this.auth.token : options.token;
    if (token !== null) headers.authorization = `${this.auth.scheme ?? 'Bearer'} ${token}`;
    if (options.sign !== false) {
      const timestamp = options.timestamp ?? Math.floor(this.clock.now().getTime() / 1000);
      headers['x-timestamp'] = String(timestamp);
      headers['x-signature'] = signRequest({
        method: 'POST',
        path,
        timestamp,
        body: options.signedBody ?? text,
        secret: options.hmacSecret ?? this.auth.hmacSecret,
        algorithm: options.algorithm ?? this.auth.algorithm,
      });
    }
    return this.send('POST', path, text, { ...headers, ...options.headers }, options.timeoutMs);
  }

  /** An unsigned request (control surface, OAuth). */
  send(
    method: string,
    path: string,
    body?: string,
    headers: Record<string, string> = {},
    timeoutMs = 10_000,
  ): Promise<TestResponse> {
    const url = new URL(path, this.baseUrl);
    return new Promise((resolve, reject) => {
      const outgoing = request(
        url,
        { method, headers, ca: this.tls.ca, cert: this.tls.cert, key: this.tls.key, agent: false, timeout: timeoutMs },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('error', reject);
          response.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            resolve({ status: response.statusCode ?? 0, headers: response.headers, text, json: tryParse(text) });
          });
        },
      );
      outgoing.on('timeout', () => outgoing.destroy(new Error(`no answer within ${timeoutMs} ms`)));
      outgoing.on('error', reject);
      outgoing.end(body);
    });
  }

  // biome-ignore lint/suspicious/noExplicitAny: tests read answers field by field and assert on them
  async getJson(path: string): Promise<any> {
    const response = await this.send('GET', path);
    if (response.status !== 200) throw new Error(`GET ${path} answered ${response.status}: ${response.text}`);
    return response.json;
  }
}

function tryParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
