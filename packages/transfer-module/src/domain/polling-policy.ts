import { isFinalStatus, isMovementStatus, type MovementStatus } from './bank-status';

// When a movement may be asked about again (docs/bank-api.md#states-and-polling; rule 6 of the contract in
// ARCHITECTURE.md):
// PENDING, CREATED, IN_PROGRESS not sooner than `minIntervalMs` after the last answer about it,
// DELAYED strictly more than `delayedMinIntervalMs` after it. Finals are never polled; one asked about on
// demand waits `minIntervalMs` after its last answer.
// Jitter, backlog pressure and failure backoff only ever add time to that rule.

export interface PollingPolicyOptions {
  /** Minimum wait after an answer for PENDING, CREATED and IN_PROGRESS (default 5000, the bank's value). */
  minIntervalMs?: number;
  /** DELAYED waits strictly longer than this after an answer (default 600000, the bank's value). */
  delayedMinIntervalMs?: number;
  /**
   * Upper bound of the random delay added so replicas do not query in lockstep (default
   * `DEFAULT_JITTER_FRACTION` of `minIntervalMs`: 500 at the bank's 5 s; 0 = none).
   */
  maxJitterMs?: number;
  /** Cap of the failure backoff, which starts at `minIntervalMs` and doubles per failure (default 300000; 0 = none). */
  maxBackoffMs?: number;
}

export interface NextQueryOptions {
  /** Backlog pressure ≥ 0: the interval becomes interval × (1 + pressure). Negative or NaN counts as 0. */
  pressure?: number;
  /** Consecutive failed queries of this movement (timeouts, 5xx…): adds an exponential backoff. */
  failures?: number;
  /** Uniform source in [0, 1) for the jitter (default Math.random). */
  random?: () => number;
}

export const DEFAULT_POLLING_OPTIONS: Readonly<Required<Omit<PollingPolicyOptions, 'maxJitterMs'>>> = {
  minIntervalMs: 5_000,
  delayedMinIntervalMs: 600_000,
  maxBackoffMs: 300_000,
};

/**
 * The default jitter bound as a share of `minIntervalMs`. In proportion, so that detection lag (a change at
 * the bank → giro's next lookup) stays close to the interval whatever the interval is: an absolute bound
 * would add a whole second to a 1 s test interval, and could be too small to spread replicas at a long one.
 */
export const DEFAULT_JITTER_FRACTION = 0.1;

// Keeps a runaway pressure figure from pushing a query out of the Date range: at most ×1001 (a DELAYED
// movement then waits about a week).
const MAX_PRESSURE = 1_000;

function requireMs(name: keyof PollingPolicyOptions, value: number, allowZero: boolean): number {
  const valid = typeof value === 'number' && Number.isFinite(value) && (allowZero ? value >= 0 : value > 0);
  if (!valid) {
    const expected = allowZero ? 'a finite number ≥ 0' : 'a positive finite number';
    throw new RangeError(`PollingPolicy option "${name}" must be ${expected} of milliseconds, got ${String(value)}`);
  }
  return value;
}

export class PollingPolicy {
  readonly minIntervalMs: number;
  readonly delayedMinIntervalMs: number;
  readonly maxJitterMs: number;
  readonly maxBackoffMs: number;

  constructor(options: PollingPolicyOptions = {}) {
    const d = DEFAULT_POLLING_OPTIONS;
    this.minIntervalMs = requireMs('minIntervalMs', options.minIntervalMs ?? d.minIntervalMs, false);
    this.delayedMinIntervalMs = requireMs(
      'delayedMinIntervalMs',
      options.delayedMinIntervalMs ?? d.delayedMinIntervalMs,
      false,
    );
    this.maxJitterMs = requireMs(
      'maxJitterMs',
      options.maxJitterMs ?? this.minIntervalMs * DEFAULT_JITTER_FRACTION,
      true,
    );
    this.maxBackoffMs = requireMs('maxBackoffMs', options.maxBackoffMs ?? d.maxBackoffMs, true);
  }

  /** The rule itself: the first instant a query about a movement in `status` is allowed. Throws for finals. */
  earliestQueryAt(status: MovementStatus, lastAnswerAt: Date): Date {
    return this.after(status, lastAnswerAt, 0);
  }

  /**
   * A final movement asked about again on demand (an operator double-checking it; the sweep never does): the
   * bank needs no further query, so it gets no more than one in progress would, `minIntervalMs` after the last
   * answer.
   */
  earliestRecheckAt(lastAnswerAt: Date): Date {
    const last = lastAnswerAt instanceof Date ? lastAnswerAt.getTime() : Number.NaN;
    if (Number.isNaN(last)) throw new RangeError('PollingPolicy: lastAnswerAt must be a valid Date');
    return new Date(last + Math.ceil(this.minIntervalMs));
  }

  /** Whether a query at `now` respects the rule. Always false for finals: they are never polled. */
  isQueryAllowed(status: MovementStatus, lastAnswerAt: Date, now: Date): boolean {
    if (isFinalStatus(status)) return false;
    return now.getTime() >= this.earliestQueryAt(status, lastAnswerAt).getTime();
  }

  /**
   * When to schedule the next query: the rule's interval stretched by backlog pressure, plus jitter, plus
   * failure backoff. Never earlier than `earliestQueryAt`. Throws for finals.
   */
  nextQueryAt(status: MovementStatus, lastAnswerAt: Date, options: NextQueryOptions = {}): Date {
    const pressure = clamp(options.pressure, 0, MAX_PRESSURE);
    const random = clamp((options.random ?? Math.random)(), 0, 1);
    const failures = Math.floor(clamp(options.failures, 0, Number.MAX_SAFE_INTEGER));
    const stretch = this.intervalFor(status) * pressure;
    const jitter = random * this.maxJitterMs;
    // 2 ** failures overflows to Infinity for huge counts; Math.min then yields the cap.
    const backoff = failures === 0 ? 0 : Math.min(this.maxBackoffMs, this.minIntervalMs * 2 ** (failures - 1));
    return this.after(status, lastAnswerAt, stretch + jitter + backoff);
  }

  private intervalFor(status: MovementStatus): number {
    if (!isMovementStatus(status)) throw new RangeError(`PollingPolicy: unknown status ${String(status)}`);
    if (isFinalStatus(status)) throw new RangeError(`PollingPolicy: ${status} is final, it is never polled`);
    return status === 'DELAYED' ? this.delayedMinIntervalMs : this.minIntervalMs;
  }

  /** lastAnswerAt + the status interval + `extraMs` (≥ 0), on whole milliseconds, never rounded down. */
  private after(status: MovementStatus, lastAnswerAt: Date, extraMs: number): Date {
    const interval = this.intervalFor(status);
    const last = lastAnswerAt instanceof Date ? lastAnswerAt.getTime() : Number.NaN;
    if (Number.isNaN(last)) throw new RangeError('PollingPolicy: lastAnswerAt must be a valid Date');
    const wait = interval + extraMs;
    // DELAYED: strictly more than the interval, so the first whole millisecond past it.
    const ms = status === 'DELAYED' ? Math.floor(wait) + 1 : Math.ceil(wait);
    return new Date(last + ms);
  }
}

/** `value` limited to [min, max]; anything not a number, or NaN, counts as `min`. */
function clamp(value: number | undefined, min: number, max: number): number {
  if (typeof value !== 'number' || Number.isNaN(value)) return min;
  return Math.min(Math.max(value, min), max);
}
