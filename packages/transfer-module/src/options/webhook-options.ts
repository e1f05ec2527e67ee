import { checkBoolean, checkInteger, checkObject, fail } from './option-checks';

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
  /** The longest attempt: connecting, sending and reading the answer (default 10 000 ms). */
  timeoutMs?: number;
  /** Attempts in flight at once in this process (default 64). */
  maxInFlight?: number;
  /** When nothing wakes it, the dispatcher looks for due deliveries this often (default 250 ms). */
  pollIntervalMs?: number;
  /** How long the previous secret keeps signing after a rotation (default 24 h). */
  secretGraceMs?: number;
  /**
   * How long an event is kept once no delivery of it is pending (delivered or dead), with its deliveries and
   * their attempts (default 30 days): the outbox does not grow without end.
   */
  retentionMs?: number;
}

export type ResolvedWebhookOptions = Required<TransferWebhookOptions> & {
  /** A dispatcher owns the deliveries it claims this long: the longest attempt, with room to record it. */
  leaseMs: number;
};

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/** 12 attempts over about 3 days (70 h 42 min of waits, before jitter). */
export const WEBHOOK_RETRY_DELAYS_MS: readonly number[] = [
  5 * SECOND,
  30 * SECOND,
  2 * MINUTE,
  10 * MINUTE,
  30 * MINUTE,
  HOUR,
  3 * HOUR,
  6 * HOUR,
  12 * HOUR,
  24 * HOUR,
  24 * HOUR,
];

const WEBHOOK_KEYS = [
  'allowLoopback',
  'allowPrivate',
  'retryDelaysMs',
  'timeoutMs',
  'maxInFlight',
  'pollIntervalMs',
  'secretGraceMs',
  'retentionMs',
] as const;

export function resolveWebhookOptions(value: unknown): ResolvedWebhookOptions | undefined {
  if (value === undefined) return undefined;
  const options = checkObject(value, 'webhooks');
  for (const key of Object.keys(options)) {
    if (!(WEBHOOK_KEYS as readonly string[]).includes(key)) {
      fail(`webhooks.${key}`, `is not an option (known: ${WEBHOOK_KEYS.join(', ')})`);
    }
  }
  const timeoutMs = checkInteger(options.timeoutMs, 'webhooks.timeoutMs', 10_000, 100, 60_000);
  return {
    allowLoopback: checkBoolean(options.allowLoopback, 'webhooks.allowLoopback', false),
    allowPrivate: checkBoolean(options.allowPrivate, 'webhooks.allowPrivate', false),
    retryDelaysMs: resolveRetryDelays(options.retryDelaysMs),
    timeoutMs,
    maxInFlight: checkInteger(options.maxInFlight, 'webhooks.maxInFlight', 64, 1, 1000),
    pollIntervalMs: checkInteger(options.pollIntervalMs, 'webhooks.pollIntervalMs', 250, 10, 60_000),
    secretGraceMs: checkInteger(options.secretGraceMs, 'webhooks.secretGraceMs', 24 * HOUR, 0, 30 * 24 * HOUR),
    retentionMs: checkInteger(options.retentionMs, 'webhooks.retentionMs', 30 * 24 * HOUR, HOUR, 3650 * 24 * HOUR),
    leaseMs: 2 * timeoutMs + 5 * SECOND,
  };
}

function resolveRetryDelays(value: unknown): number[] {
  if (value === undefined) return [...WEBHOOK_RETRY_DELAYS_MS];
  if (!Array.isArray(value) || value.length > 50)
    fail('webhooks.retryDelaysMs', 'must be an array of at most 50 waits');
  return value.map((delay, index) => checkInteger(delay, `webhooks.retryDelaysMs[${index}]`, 0, 1, 7 * 24 * HOUR));
}
