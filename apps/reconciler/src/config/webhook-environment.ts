import {
  explainWebhookSecret,
  explainWebhookUrl,
  type TransferWebhookOptions,
  WEBHOOK_EVENT_TYPES,
} from '@giro/transfer-module';
import { parseDuration, parseDurationList } from './durations';
import type { ReconcilerEnvironment } from './environment';

/** The one endpoint of the environment (WEBHOOK_URL, WEBHOOK_SECRET), registered as `ep_environment` at start. */
export interface EnvironmentWebhookEndpoint {
  url: string;
  /** `whsec_…`: never logged, printed or shown in an answer. */
  secret: string;
  /** WEBHOOK_EVENT_TYPES; absent: every type. */
  eventTypes?: string[];
}

export interface WebhookSettings {
  /** The TransferModule's `webhooks` option: always given, so the outbox is always written. */
  options: TransferWebhookOptions;
  /** Undefined without WEBHOOK_URL: endpoints are registered through the admin API only. */
  environmentEndpoint?: EnvironmentWebhookEndpoint;
}

/** The bounds the transfer module checks (`webhooks.*`), so that a bad variable is named here, before the start. */
export const WEBHOOK_LIMITS = {
  timeoutMs: { min: 100, max: 60_000 },
  maxInFlight: { min: 1, max: 1000 },
  retryDelayMs: { min: 1, max: 7 * 86_400_000 },
  retries: 50,
  retentionMs: { min: 3_600_000, max: 3650 * 86_400_000 },
} as const;

const SUBSCRIBABLE = WEBHOOK_EVENT_TYPES.filter((type) => type !== 'webhook.test');

/**
 * The webhooks of the reconciler from WEBHOOK_* (its README's table). Sandbox mode allows loopback receivers
 * (the demo's) unless WEBHOOK_ALLOW_LOOPBACK=false. Problems are pushed to `problems`, naming the variable and
 * the rule, never a value (a URL may carry a token, the secret is one).
 */
export function webhookSettingsFromEnvironment(
  vars: ReconcilerEnvironment,
  sandbox: boolean,
  problems: string[],
): WebhookSettings {
  const options: TransferWebhookOptions = {
    allowLoopback: vars.WEBHOOK_ALLOW_LOOPBACK === undefined ? sandbox : vars.WEBHOOK_ALLOW_LOOPBACK === 'true',
    allowPrivate: vars.WEBHOOK_ALLOW_PRIVATE === 'true',
    ...(vars.WEBHOOK_TIMEOUT_MS !== undefined && { timeoutMs: vars.WEBHOOK_TIMEOUT_MS }),
    ...(vars.WEBHOOK_MAX_IN_FLIGHT !== undefined && { maxInFlight: vars.WEBHOOK_MAX_IN_FLIGHT }),
  };
  const retryDelaysMs = retryDelaysFromEnvironment(vars.WEBHOOK_RETRY_DELAYS, problems);
  if (retryDelaysMs !== undefined) options.retryDelaysMs = retryDelaysMs;
  const retentionMs = retentionFromEnvironment(vars.WEBHOOK_RETENTION, problems);
  if (retentionMs !== undefined) options.retentionMs = retentionMs;
  const environmentEndpoint = environmentEndpointFrom(vars, options, problems);
  return { options, ...(environmentEndpoint && { environmentEndpoint }) };
}

function environmentEndpointFrom(
  vars: ReconcilerEnvironment,
  rules: TransferWebhookOptions,
  problems: string[],
): EnvironmentWebhookEndpoint | undefined {
  const { WEBHOOK_URL: url, WEBHOOK_SECRET: secret } = vars;
  if (url === undefined || secret === undefined) {
    if (url !== undefined) problems.push('WEBHOOK_SECRET is required with WEBHOOK_URL: set both, or neither');
    if (secret !== undefined) problems.push('WEBHOOK_URL is required with WEBHOOK_SECRET: set both, or neither');
    if (vars.WEBHOOK_EVENT_TYPES !== undefined) {
      problems.push('WEBHOOK_EVENT_TYPES is set but WEBHOOK_URL is not: it chooses the events of that endpoint');
    }
    return undefined;
  }
  const before = problems.length;
  const urlProblem = explainWebhookUrl(url, {
    allowLoopback: rules.allowLoopback ?? false,
    allowPrivate: rules.allowPrivate ?? false,
  });
  if (urlProblem !== undefined) problems.push(`WEBHOOK_URL ${withoutAddress(urlProblem)}`);
  const secretProblem = explainWebhookSecret(secret);
  if (secretProblem !== undefined) {
    problems.push(`WEBHOOK_SECRET ${secretProblem} (a Standard Webhooks secret, e.g. made by openssl rand -base64 32)`);
  }
  const eventTypes = eventTypesFromEnvironment(vars.WEBHOOK_EVENT_TYPES, problems);
  if (problems.length > before) return undefined;
  return { url, secret, ...(eventTypes && { eventTypes }) };
}

/** "10.0.0.5 is a private … address" → "is a private … address": the value stays out of the message. */
function withoutAddress(problem: string): string {
  return problem.replace(/^\S+ (is (?:a|not) )/, 'names an address that $1');
}

function eventTypesFromEnvironment(value: string | undefined, problems: string[]): string[] | undefined {
  if (value === undefined) return undefined;
  const types = value.split(',').map((type) => type.trim());
  const bad = types.findIndex((type) => !(SUBSCRIBABLE as readonly string[]).includes(type));
  if (bad >= 0) {
    problems.push(
      `WEBHOOK_EVENT_TYPES item ${bad + 1} is not an event type: a comma-separated list of ${SUBSCRIBABLE.join(', ')}`,
    );
    return undefined;
  }
  return [...new Set(types)];
}

function retryDelaysFromEnvironment(value: string | undefined, problems: string[]): number[] | undefined {
  if (value === undefined) return undefined;
  const { min, max } = WEBHOOK_LIMITS.retryDelayMs;
  const rule = `a comma-separated list of at most ${WEBHOOK_LIMITS.retries} waits between 1ms and 7d, each a whole number with a unit (ms, s, m, h, d) or of milliseconds, e.g. 5s,30s,2m`;
  const parsed = parseDurationList(value);
  if (!parsed.ok) {
    problems.push(`WEBHOOK_RETRY_DELAYS item ${parsed.item} is not a duration: ${rule}`);
    return undefined;
  }
  const outside = parsed.ms.findIndex((ms) => ms < min || ms > max);
  if (outside >= 0) {
    problems.push(`WEBHOOK_RETRY_DELAYS item ${outside + 1} is out of range: ${rule}`);
    return undefined;
  }
  if (parsed.ms.length > WEBHOOK_LIMITS.retries) {
    problems.push(`WEBHOOK_RETRY_DELAYS has ${parsed.ms.length} waits: ${rule}`);
    return undefined;
  }
  return parsed.ms;
}

function retentionFromEnvironment(value: string | undefined, problems: string[]): number | undefined {
  if (value === undefined) return undefined;
  const { min, max } = WEBHOOK_LIMITS.retentionMs;
  const ms = parseDuration(value);
  if (ms === undefined || ms < min || ms > max) {
    problems.push('WEBHOOK_RETENTION must be a duration from 1h to 3650d, a whole number with a unit (h, d), e.g. 30d');
    return undefined;
  }
  return ms;
}
