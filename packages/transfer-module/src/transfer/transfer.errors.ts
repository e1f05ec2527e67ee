import { GiroError, type Violation } from '../domain';

// Errors of the TransferService, each saying what the caller must do. The not-found errors of the store
// (MovementNotFoundError, CancellationNotFoundError) pass through unchanged.

/** The input was refused; `violations` names every bad field and its rule. Nothing was stored or sent. */
export class TransferValidationError extends GiroError {
  override readonly name = 'TransferValidationError';

  constructor(override readonly violations: Violation[]) {
    super(
      'VALIDATION_FAILED',
      `invalid transfer request: ${violations
        .map((v) => `${v.field === '' ? '(request)' : v.field} ${v.message} [${v.rule}]`)
        .join('; ')}`,
    );
  }
}

/**
 * The transfer would pass a limit of its source account (`violations`: the limit as `rule` — `per_transfer`,
 * `daily_amount`, `daily_count` — and what remains in its params). Nothing was stored or sent; the same
 * transfer may fit later (another day, or after a FAILED one freed its share).
 */
export class TransferLimitError extends GiroError {
  override readonly name = 'TransferLimitError';

  constructor(override readonly violations: Violation[]) {
    super(
      'LIMIT_EXCEEDED',
      `transfer refused by a limit: ${violations.map((v) => `${v.message} [${v.rule}]`).join('; ')}`,
    );
  }
}

/**
 * The destination account is blocked in the payee book: the transfer was refused with nothing stored or sent (an
 * approver may unblock the account).
 */
export class PayeeBlockedError extends GiroError {
  override readonly name = 'PayeeBlockedError';
  override readonly violations: Violation[];

  constructor(readonly address: string) {
    super('PAYEE_BLOCKED', `transfers to ${address} are refused: the account is blocked in the payee book`);
    this.violations = [
      {
        field: 'to.address',
        rule: 'payee_blocked',
        params: { address },
        message: 'is blocked in the payee book: transfers to it are refused',
      },
    ];
  }

  override answerFields() {
    return { address: this.address };
  }
}

/**
 * The transfer's execution day or moment cannot be kept (`violations`: `past`, `business_day` under the policy
 * `refuse`, `calendar`, `horizon`). Nothing was stored or sent.
 */
export class ScheduleRefusedError extends GiroError {
  override readonly name = 'ScheduleRefusedError';

  constructor(override readonly violations: Violation[]) {
    super(
      'SCHEDULE_REFUSED',
      `transfer schedule refused: ${violations.map((v) => `${v.field} ${v.message} [${v.rule}]`).join('; ')}`,
    );
  }
}

/** This originId is already stored with another payload: it is never sent again with different data. */
export class TransferConflictError extends GiroError {
  override readonly name = 'TransferConflictError';

  constructor(readonly originId: number) {
    super(
      'TRANSFER_CONFLICT',
      `originId ${originId} already exists with a different payload; an originId is never reused`,
    );
  }

  override answerFields() {
    return { originId: this.originId };
  }
}

/** The polling rule does not allow asking the bank about this movement yet (docs/bank-api.md#states-and-polling). */
export class PollTooSoonError extends GiroError {
  override readonly name = 'PollTooSoonError';
  readonly retryAfterMs: number;

  constructor(
    readonly originId: number,
    readonly retryAt: Date,
    now: Date,
  ) {
    super('POLL_TOO_SOON', `originId ${originId} may be queried again at ${retryAt.toISOString()} (polling rule)`);
    this.retryAfterMs = Math.max(0, retryAt.getTime() - now.getTime());
  }

  override answerFields() {
    return { originId: this.originId, retryAt: this.retryAt.toISOString() };
  }
}

/** Another worker holds this movement's lease right now; try again shortly. */
export class MovementBusyError extends GiroError {
  override readonly name = 'MovementBusyError';

  constructor(readonly originId: number) {
    super('MOVEMENT_BUSY', `originId ${originId} is being handled by another worker right now`);
  }

  override answerFields() {
    return { originId: this.originId };
  }
}

/**
 * A lookup at the bank about a stored movement got no usable answer (a timeout, a 5xx, a refusal…): the movement
 * keeps its state, and `lastError` says what happened; the sweep asks again later.
 */
export class BankLookupFailedError extends GiroError {
  override readonly name = 'BankLookupFailedError';

  constructor(
    readonly originId: number,
    readonly lastError: string | null,
  ) {
    super(
      'BANK_LOOKUP_FAILED',
      `the bank gave no usable answer about originId ${originId}${lastError ? `: ${lastError}` : ''}`,
    );
  }

  override answerFields() {
    return { originId: this.originId };
  }
}

/**
 * Client sub-accounts are PSP mode's: sending from the virtual sub-accounts of one's clients is reserved to payment
 * service providers registered with the central bank (`psp: true`, PSP_MODE=true).
 */
export class PspModeRequiredError extends GiroError {
  override readonly name = 'PspModeRequiredError';

  constructor() {
    super(
      'PSP_MODE_REQUIRED',
      "client sub-accounts need PSP mode: sending from clients' virtual sub-accounts is reserved to payment service providers registered with the central bank",
    );
  }
}
