import type { Violation } from '../domain';

// Errors of the TransferService, each saying what the caller must do. The not-found errors of the store
// (MovementNotFoundError, CancellationNotFoundError) pass through unchanged.

/** The input was refused; `violations` names every bad field and its rule. Nothing was stored or sent. */
export class TransferValidationError extends Error {
  override readonly name = 'TransferValidationError';

  constructor(readonly violations: Violation[]) {
    super(
      `invalid transfer request: ${violations
        .map((v) => `${v.field === '' ? '(request)' : v.field} ${v.message} [${v.rule}]`)
        .join('; ')}`,
    );
  }
}

/**
 * The transfer would pass a limit of its source account (`violations`: the limit as `rule` — `per_transfer`,
 * `daily_amount`, `daily_count` — and what remains in the message). Nothing was stored or sent; the same
 * transfer may fit later (another day, or after a FAILED one freed its share).
 */
export class TransferLimitError extends Error {
  override readonly name = 'TransferLimitError';

  constructor(readonly violations: Violation[]) {
    super(`transfer refused by a limit: ${violations.map((v) => `${v.message} [${v.rule}]`).join('; ')}`);
  }
}

/** This originId is already stored with another payload: it is never sent again with different data. */
export class TransferConflictError extends Error {
  override readonly name = 'TransferConflictError';

  constructor(readonly originId: number) {
    super(`originId ${originId} already exists with a different payload; an originId is never reused`);
  }
}

/** The polling rule does not allow asking the bank about this movement yet (docs/bank-api.md#states-and-polling). */
export class PollTooSoonError extends Error {
  override readonly name = 'PollTooSoonError';
  readonly retryAfterMs: number;

  constructor(
    readonly originId: number,
    readonly retryAt: Date,
    now: Date,
  ) {
    super(`originId ${originId} may be queried again at ${retryAt.toISOString()} (polling rule)`);
    this.retryAfterMs = Math.max(0, retryAt.getTime() - now.getTime());
  }
}

/** Another worker holds this movement's lease right now; try again shortly. */
export class MovementBusyError extends Error {
  override readonly name = 'MovementBusyError';

  constructor(readonly originId: number) {
    super(`originId ${originId} is being handled by another worker right now`);
  }
}

/**
 * A lookup at the bank about a stored movement got no usable answer (a timeout, a 5xx, a refusal…): the movement
 * keeps its state, and `lastError` says what happened; the sweep asks again later.
 */
export class BankLookupFailedError extends Error {
  override readonly name = 'BankLookupFailedError';

  constructor(
    readonly originId: number,
    readonly lastError: string | null,
  ) {
    super(`the bank gave no usable answer about originId ${originId}${lastError ? `: ${lastError}` : ''}`);
  }
}

/**
 * Client sub-accounts are PSP mode's: sending from the virtual sub-accounts of one's clients is reserved to payment
 * service providers registered with the central bank (`psp: true`, PSP_MODE=true).
 */
export class PspModeRequiredError extends Error {
  override readonly name = 'PspModeRequiredError';

  constructor() {
    super(
      "client sub-accounts need PSP mode: sending from clients' virtual sub-accounts is reserved to payment service providers registered with the central bank",
    );
  }
}
