import createClient, { type Client } from 'openapi-fetch';
import type { components, paths } from './generated/admin-api';

/** The admin API's paths, operations and schemas, as openapi-typescript generated them from giro's OpenAPI document. */
export type { components, paths };

/** A movement as the admin API answers it: its status, history, cancellation and the bank's details. */
export type Movement = components['schemas']['Movement'];
export type MovementStatus = Movement['status'];

/** The admin API, typed by path and method: `client.POST('/admin/transfers', { body })`, `client.GET(…)`. */
export type GiroClient = Client<paths>;

export interface GiroClientOptions {
  /** Where giro serves the admin API: the reconciler's URL, or a host app's that mounts TransferAdminModule. */
  baseUrl: string;
  /** An API key (`giro-reconciler keys create`) or the admin token, sent as `Authorization: Bearer …`. */
  token: string;
  /** Another fetch (a proxy's, a test's); default the global one. */
  fetch?: (request: Request) => Promise<Response>;
  /** Headers sent with every request besides the token (a `traceparent` is better set per request). */
  headers?: Record<string, string>;
}

/**
 * A typed client of giro's admin API (openapi-fetch): every call answers `{ data, error, response }`, `data` typed
 * by the operation's success schema, `error` giro's error body (`code`, `message`, `violations`).
 */
export function createGiroClient(options: GiroClientOptions): GiroClient {
  return createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    headers: { ...options.headers, authorization: `Bearer ${options.token}` },
    ...(options.fetch && { fetch: options.fetch }),
  });
}
