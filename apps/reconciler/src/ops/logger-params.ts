import type { IncomingMessage } from 'node:http';
import type { Params } from 'nestjs-pino';
import type { DestinationStream } from 'pino';
import type { LogLevel } from '../config/environment';

export const REDACTED = '[redacted]';

/**
 * Where secrets could appear in a log line: request headers (the admin bearer token), and any logged
 * object with a secret-looking field, at the top level or one level down. Values are replaced, the keys
 * stay, so a reader still sees that a credential was present.
 */
const SECRET_FIELDS = [
  'authorization',
  'token',
  'accessToken',
  'access_token',
  'adminToken',
  'password',
  'passphrase',
  'secret',
  'clientSecret',
  'client_secret',
  'hmacSecret',
  'key',
  'privateKey',
];

export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["proxy-authorization"]',
  'res.headers["set-cookie"]',
  ...SECRET_FIELDS,
  ...SECRET_FIELDS.map((field) => `*.${field}`),
];

// The admin routes that name a movement: /admin/transfers/:originId[/refresh], /admin/cancellations/:originId/ack.
const MOVEMENT_ROUTE = /^\/admin\/(?:transfers|cancellations)\/(\d{1,16})(?:\/|\?|$)/;

/** The originId a request is about, from its URL, so its access log line carries it. */
export function originIdOfRequest(url: string | undefined): number | undefined {
  const match = url === undefined ? null : MOVEMENT_ROUTE.exec(url);
  return match ? Number(match[1]) : undefined;
}

/** nestjs-pino settings: JSON lines, secrets redacted, the originId on request lines about a movement. */
export function loggerParams(level: LogLevel, destination?: DestinationStream): Params {
  const options = {
    level,
    redact: { paths: REDACTED_PATHS, censor: REDACTED },
    // Scrapes and probes would drown everything else.
    autoLogging: { ignore: (req: IncomingMessage) => req.url === '/metrics' || req.url === '/health' },
    customProps: (req: IncomingMessage) => {
      const originId = originIdOfRequest(req.url);
      return originId === undefined ? {} : { originId };
    },
  };
  return { pinoHttp: destination ? [options, destination] : options, assignResponse: true };
}
