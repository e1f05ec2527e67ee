import { checkBoolean, checkDeclaredInteger, checkInteger, checkObject, fail } from './option-checks';
import { WEBHOOK_OPTIONS } from './option-declarations';

export { WEBHOOK_RETRY_DELAYS_MS } from './option-declarations';

/**
 * Webhooks (Standard Webhooks, from a transactional outbox). Given: every change of a movement writes its events
 * in its own transaction, and a WebhookDispatcher (started beside the sweep) delivers them to the endpoints
 * registered through WebhookService. Omitted: nothing is written and nothing is sent.
 */
export interface TransferWebhookOptions {
  /**
   * Allow endpoints on loopback addresses (127.0.0.0/8, ::1, `localhost`), over http as well (default false):
   * tests, the sandbox, a receiver beside the reconciler.
   */
  allowLoopback?: boolean;
  /** Allow endpoints on private and link-local addresses (default false: a webhook is not a way into the network). */
  allowPrivate?: boolean;
  /**
   * The wait before each retry, in order (default WEBHOOK_RETRY_DELAYS_MS: 5 s … 24 h, about 3 days in all). After
   * the last one fails the delivery is dead. Each wait gets up to 10 % of jitter.
   */
  retryDelaysMs?: number[];
  /** The longest attempt: connecting, sending and reading the answer (default 10000 ms). */
  timeoutMs?: number;
  /** Attempts in flight at once in this process (default 64). */
  maxInFlight?: number;
  /** When nothing wakes it, the dispatcher looks for due deliveries this often (default 250 ms). */
  pollIntervalMs?: number;
  /** How long the previous secret keeps signing after a rotation (default 86400000 ms, 24 h). */
  secretGraceMs?: number;
  /**
   * How long an event is kept once no delivery of it is pending (delivered or dead), with its deliveries and
   * their attempts (default 2592000000 ms, 30 days): the outbox does not grow without end.
   */
  retentionMs?: number;
}

export type ResolvedWebhookOptions = Required<TransferWebhookOptions> & {
  /** A dispatcher owns the deliveries it claims this long: the longest attempt, with room to record it. */
  leaseMs: number;
};

const WEBHOOK_KEYS = Object.keys(WEBHOOK_OPTIONS);
/** Room to record an attempt's outcome after its longest wait. */
const LEASE_MARGIN_MS = 5_000;
/** The retry delays' own bounds: at most this many waits, each from 1 ms to 7 days. */
const MAX_RETRIES = 50;
const RETRY_DELAY = { min: 1, max: 7 * 86_400_000 };

export function resolveWebhookOptions(value: unknown): ResolvedWebhookOptions | undefined {
  if (value === undefined) return undefined;
  const options = checkObject(value, 'webhooks');
  for (const key of Object.keys(options)) {
    if (!WEBHOOK_KEYS.includes(key)) {
      fail(`webhooks.${key}`, `is not an option (known: ${WEBHOOK_KEYS.join(', ')})`);
    }
  }
  const declared = WEBHOOK_OPTIONS;
  const integer = (key: 'timeoutMs' | 'maxInFlight' | 'pollIntervalMs' | 'secretGraceMs' | 'retentionMs') =>
    checkDeclaredInteger(options[key], `webhooks.${key}`, declared[key]);
  const timeoutMs = integer('timeoutMs');
  return {
    allowLoopback: checkBoolean(options.allowLoopback, 'webhooks.allowLoopback', declared.allowLoopback.default),
    allowPrivate: checkBoolean(options.allowPrivate, 'webhooks.allowPrivate', declared.allowPrivate.default),
    retryDelaysMs: resolveRetryDelays(options.retryDelaysMs),
    timeoutMs,
    maxInFlight: integer('maxInFlight'),
    pollIntervalMs: integer('pollIntervalMs'),
    secretGraceMs: integer('secretGraceMs'),
    retentionMs: integer('retentionMs'),
    leaseMs: 2 * timeoutMs + LEASE_MARGIN_MS,
  };
}

function resolveRetryDelays(value: unknown): number[] {
  if (value === undefined) return [...WEBHOOK_OPTIONS.retryDelaysMs.default];
  if (!Array.isArray(value) || value.length > MAX_RETRIES)
    fail('webhooks.retryDelaysMs', `must be an array of at most ${MAX_RETRIES} waits`);
  return value.map((delay, index) =>
    checkInteger(delay, `webhooks.retryDelaysMs[${index}]`, 0, RETRY_DELAY.min, RETRY_DELAY.max),
  );
}
