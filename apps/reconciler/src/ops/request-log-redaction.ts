import { REDACTED } from '@giro/admin';

/**
 * Request headers whose values are logged as they are: the ones a reader needs and no client puts a secret in.
 * Any other header's value is redacted, its name kept — a token sent in the wrong header (`X-Admin-Token`,
 * `X-Api-Key`…) never reaches a log line in clear.
 */
const LOGGED_HEADERS = new Set([
  'accept',
  'accept-encoding',
  'accept-language',
  'connection',
  'content-length',
  'content-type',
  'host',
  'user-agent',
  'x-forwarded-for',
  'x-forwarded-proto',
  'x-forwarded-host',
  'x-request-id',
]);

/**
 * Query parameters of the admin API whose values are logged as they are; any other's value is redacted (a token
 * sent as `?access_token=` never reaches a log line in clear).
 */
const LOGGED_QUERY_PARAMETERS = new Set(['status', 'limit', 'after', 'acknowledged']);

/** `url` with the value of every query parameter but the admin API's own replaced by `[redacted]`. */
export function redactUrl(url: string): string {
  const start = url.indexOf('?');
  if (start < 0) return url;
  const query = url
    .slice(start + 1)
    .split('&')
    .map((pair) => {
      const separator = pair.indexOf('=');
      const name = separator < 0 ? pair : pair.slice(0, separator);
      return LOGGED_QUERY_PARAMETERS.has(safeDecode(name)) ? pair : `${name}=${REDACTED}`;
    })
    .join('&');
  return `${url.slice(0, start)}?${query}`;
}

/** The headers with every value but the LOGGED_HEADERS' redacted. */
export function redactHeaders(headers: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(headers).map(([name, value]) => [name, LOGGED_HEADERS.has(name.toLowerCase()) ? value : REDACTED]),
  );
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
