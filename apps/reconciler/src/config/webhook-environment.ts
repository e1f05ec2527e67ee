import {
  explainWebhookSecret,
  explainWebhookUrl,
  type TransferWebhookOptions,
  WEBHOOK_EVENT_TYPES,
} from '@giro/transfer-module';
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
    allowLoopback: vars.WEBHOOK_ALLOW_LOOPBACK ?? sandbox,
    allowPrivate: vars.WEBHOOK_ALLOW_PRIVATE,
    ...(vars.WEBHOOK_TIMEOUT_MS !== undefined && { timeoutMs: vars.WEBHOOK_TIMEOUT_MS }),
    ...(vars.WEBHOOK_MAX_IN_FLIGHT !== undefined && { maxInFlight: vars.WEBHOOK_MAX_IN_FLIGHT }),
    ...(vars.WEBHOOK_RETRY_DELAYS !== undefined && { retryDelaysMs: vars.WEBHOOK_RETRY_DELAYS }),
    ...(vars.WEBHOOK_RETENTION !== undefined && { retentionMs: vars.WEBHOOK_RETENTION }),
  };
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

function eventTypesFromEnvironment(types: string[] | undefined, problems: string[]): string[] | undefined {
  if (types === undefined) return undefined;
  const bad = types.findIndex((type) => !(SUBSCRIBABLE as readonly string[]).includes(type));
  if (bad >= 0) {
    problems.push(
      `WEBHOOK_EVENT_TYPES item ${bad + 1} is not an event type: a comma-separated list of ${SUBSCRIBABLE.join(', ')}`,
    );
    return undefined;
  }
  return [...new Set(types)];
}
