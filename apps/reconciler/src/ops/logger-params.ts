import type { IncomingMessage, ServerResponse } from 'node:http';
import { REDACTED, type SecretRedactor } from '@giro/admin';
import type { Params } from 'nestjs-pino';
import type { DestinationStream } from 'pino';
import type { LogLevel } from '../config/variables';
import { redactHeaders, redactUrl } from './request-log-redaction';

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

/** Scrapes and probes, which would drown everything else. */
const UNLOGGED_PATHS = new Set(['/metrics', '/health', '/health/live', '/health/ready']);

/** A request line's level: a client's mistake (4xx) is a warning, only the server's own failures are errors. */
export function requestLogLevel(_req: IncomingMessage, res: ServerResponse, error?: Error): 'info' | 'warn' | 'error' {
  if (res.statusCode >= 500 || (error !== undefined && res.statusCode < 400)) return 'error';
  return res.statusCode >= 400 ? 'warn' : 'info';
}

/**
 * nestjs-pino settings: JSON lines, secrets redacted — credential fields, query parameter values and header values
 * other than the known harmless ones, and the admin token or the secret of any API key (`giro_…`) wherever it
 * appears (`redactor`): in a message, in a logged object's strings, in the request's URL, path parameters and
 * logged headers (`X-Request-Id`) — and the originId on request lines about a movement.
 */
export function loggerParams(level: LogLevel, redactor: SecretRedactor, destination?: DestinationStream): Params {
  const options = {
    level,
    redact: { paths: REDACTED_PATHS, censor: REDACTED },
    hooks: {
      // Every argument of every log call (the message and the objects), before pino writes the line.
      logMethod(this: unknown, args: unknown[], method: (...args: unknown[]) => void) {
        method.apply(
          this,
          args.map((arg) => redactor.redactIn(arg)),
        );
      },
    },
    serializers: {
      // The request as pino-http serialized it; `query` repeats the URL's parameters and is left out. Its URL and
      // route parameters (`params`) may hold a key pasted into a path: searched too.
      req: ({ query: _query, ...req }: { url?: string; headers?: Record<string, unknown>; query?: unknown }) =>
        redactor.redactIn({
          ...req,
          ...(req.url !== undefined && { url: redactUrl(req.url) }),
          ...(req.headers !== undefined && { headers: redactHeaders(req.headers) }),
        }),
      // The response as pino-http serialized it: its headers echo what the client sent (`X-Request-Id`).
      res: (res: Record<string, unknown>) => redactor.redactIn(res),
    },
    customLogLevel: requestLogLevel,
    autoLogging: { ignore: (req: IncomingMessage) => UNLOGGED_PATHS.has((req.url ?? '').split('?')[0] as string) },
    customProps: (req: IncomingMessage) => {
      const originId = originIdOfRequest(req.url);
      return originId === undefined ? {} : { originId };
    },
  };
  return { pinoHttp: destination ? [options, destination] : options, assignResponse: true };
}
