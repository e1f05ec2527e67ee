import { amountFromWire, amountToCents, type DecimalAmount } from './money';

// Maker–checker: a transfer above an amount waits, stored and never sent, until a second person with
// the approver role approves it. Not approved in time, it ends REJECTED, like one an approver refused.

/** How long a transfer waits for its approval when the options do not say: 24 hours. */
export const DEFAULT_APPROVAL_EXPIRY_MS = 24 * 60 * 60 * 1000;
/** The longest wait the options may set: 30 days (an approval older than that is not a decision about today). */
export const MAX_APPROVAL_EXPIRY_MS = 30 * 24 * 60 * 60 * 1000;
/** The shortest: one minute. */
export const MIN_APPROVAL_EXPIRY_MS = 60 * 1000;

/** The approvals options as configured. */
export interface ApprovalOptions {
  /**
   * Transfers of more than this amount (a decimal string or a number, in the transfer's own currency) wait for an
   * approval; `0` makes every transfer wait.
   */
  requiredAbove: string | number;
  /** How long one waits before it ends REJECTED (ms, default DEFAULT_APPROVAL_EXPIRY_MS). */
  expiresAfterMs?: number;
}

/** Checked approvals options: which transfers wait, and until when. */
export class ApprovalPolicy {
  private constructor(
    readonly requiredAbove: DecimalAmount,
    readonly expiresAfterMs: number,
    private readonly thresholdCents: bigint,
  ) {}

  /** Reads approvals options; throws a RangeError whose message starts with the bad field's name. */
  static from(options: unknown): ApprovalPolicy {
    if (typeof options !== 'object' || options === null || Array.isArray(options)) {
      throw new RangeError('approvals must be an object like { requiredAbove: "1000.00" }');
    }
    const { requiredAbove, expiresAfterMs = DEFAULT_APPROVAL_EXPIRY_MS, ...unknown } = options as ApprovalOptions;
    const extra = Object.keys(unknown)[0];
    if (extra !== undefined)
      throw new RangeError(`${extra} is not an approvals key (known: requiredAbove, expiresAfterMs)`);
    const threshold = amountFromWire(requiredAbove);
    if (threshold === undefined) {
      throw new RangeError(
        `requiredAbove must be an amount ≥ 0 with at most 2 decimals (0: every transfer), got ${JSON.stringify(requiredAbove)}`,
      );
    }
    if (
      !Number.isInteger(expiresAfterMs) ||
      expiresAfterMs < MIN_APPROVAL_EXPIRY_MS ||
      expiresAfterMs > MAX_APPROVAL_EXPIRY_MS
    ) {
      throw new RangeError(
        `expiresAfterMs must be a whole number of ms from ${MIN_APPROVAL_EXPIRY_MS} (1 minute) to ${MAX_APPROVAL_EXPIRY_MS} (30 days), got ${JSON.stringify(expiresAfterMs)}`,
      );
    }
    return new ApprovalPolicy(threshold, expiresAfterMs, amountToCents(threshold));
  }

  /** Whether a transfer of `amount` waits for an approval: more than the threshold. */
  requiresApproval(amount: DecimalAmount): boolean {
    return amountToCents(amount) > this.thresholdCents;
  }

  /** When a transfer stored at `createdAtMs` stops waiting and ends REJECTED. */
  expiresAt(createdAtMs: number): number {
    return createdAtMs + this.expiresAfterMs;
  }
}
