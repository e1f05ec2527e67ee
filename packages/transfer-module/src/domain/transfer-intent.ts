import { hash } from 'node:crypto';
import type { ExecutionRequest } from './execution-schedule';
import { amountToWire, type DecimalAmount } from './money';
import { explainOriginId, isValidOriginId } from './origin-id';
import { type Fields, readRequest } from './request-fields';
import { TRANSFER_REQUEST } from './transfer-request';
import { type TransferIntentRules, transferLimitsOf } from './transfer-rules';
import type { Violation } from './violation';

// A transfer intent is the validated transfer request (docs/bank-api.md#request-fields). Validation reads the
// request shape (`body.amount`…) and names fields by their path in it; the validated intent keeps the payment
// data flat.

export interface TransferParty {
  addressType: 'CBU_CVU';
  /** A valid CBU or CVU. */
  address: string;
  owner: {
    personIdType: 'CUI';
    /** A valid CUIT or CUIL. */
    personId: string;
  };
}

/** A validated request whose originId may still be missing (the service then allocates one). */
export interface TransferInput {
  originId?: number;
  from: TransferParty;
  to: TransferParty;
  /** One of the accepted currencies (`transferRules.currencies`). */
  currencyId: string;
  amount: DecimalAmount;
  description: string;
  /** One of the accepted concept codes (`transferRules.concepts`). */
  concept: string;
  /** When it is to be sent, as asked (`executeOn` or `executeAt`); absent: at once. */
  execution?: ExecutionRequest;
}

/** A validated request with its originId: what is stored before anything goes to the bank. */
export type TransferIntent = TransferInput & { originId: number };

/** The request body as sent to the bank (docs/bank-api.md#request-fields; amount a JSON number). */
export interface TransferRequestWire {
  originId: number;
  from: TransferParty;
  to: TransferParty;
  body: {
    currencyId: string;
    amount: number;
    description: string;
    concept: string;
  };
}

export type ValidateTransferResult = { ok: true; intent: TransferInput } | { ok: false; violations: Violation[] };

/**
 * Validates a transfer request field by field as TRANSFER_REQUEST describes it (transfer-request.ts):
 * `originId` optional, `body.amount` a JSON number or a decimal string, `body.concept` optional, default VAR;
 * `body.currencyId` and `body.concept` among `rules.currencies` and `rules.concepts`. Collects every violation,
 * unknown fields included. Throws a RangeError only for invalid `rules` (a configuration error).
 */
export function validateTransferIntent(input: unknown, rules?: TransferIntentRules): ValidateTransferResult {
  const read = readRequest(TRANSFER_REQUEST, input, transferLimitsOf(rules));
  if (!read.ok) return read;
  // The description's rules made these types (a literal CBU_CVU, a DecimalAmount, a configured code…).
  const { originId, from, to, body, executeOn, executeAt } = read.value as {
    originId?: number;
    from: TransferParty;
    to: TransferParty;
    body: Fields;
    executeOn?: string;
    executeAt?: string;
  };
  if (executeOn !== undefined && executeAt !== undefined) {
    const fields = ['executeOn', 'executeAt'];
    return {
      ok: false,
      violations: [
        { field: '', rule: 'exclusive', params: { fields }, message: 'give executeOn or executeAt, not both' },
      ],
    };
  }
  const intent: TransferInput = {
    from,
    to,
    currencyId: body.currencyId as string,
    amount: body.amount as DecimalAmount,
    description: body.description as string,
    concept: body.concept as string,
  };
  if (originId !== undefined) intent.originId = originId;
  if (executeOn !== undefined) intent.execution = { executeOn };
  if (executeAt !== undefined) intent.execution = { executeAt };
  return { ok: true, intent };
}

/** The request body for the bank. Throws if the intent has no valid originId: nothing goes out without one. */
export function intentToWire(intent: TransferIntent): TransferRequestWire {
  if (!isValidOriginId(intent.originId)) {
    throw new RangeError(`intentToWire: originId ${explainOriginId(intent.originId)}`);
  }
  return {
    originId: intent.originId,
    from: copyParty(intent.from),
    to: copyParty(intent.to),
    body: {
      currencyId: intent.currencyId,
      amount: amountToWire(intent.amount),
      description: intent.description,
      concept: intent.concept,
    },
  };
}

/**
 * SHA-256 (hex) of the payload without the originId, so "same originId, same payload?" can be answered
 * later. The canonical form is JSON with keys in alphabetical order at every level and the amount as its
 * canonical decimal string; it is stored, so changing it would change every stored fingerprint. The execution
 * asked for is part of the payload (another day is another request), and absent from the form when none was.
 */
export function intentFingerprint(intent: TransferInput): string {
  const party = (p: TransferParty) => ({
    address: p.address,
    addressType: p.addressType,
    owner: { personId: p.owner.personId, personIdType: p.owner.personIdType },
  });
  const canonical = JSON.stringify({
    amount: intent.amount,
    concept: intent.concept,
    currencyId: intent.currencyId,
    description: intent.description,
    ...(intent.execution !== undefined && { execution: canonicalExecution(intent.execution) }),
    from: party(intent.from),
    to: party(intent.to),
  });
  // One-shot hash (strings are hashed as UTF-8): no Hash object to create per intent.
  return hash('sha256', canonical, 'hex');
}

function canonicalExecution(execution: ExecutionRequest): ExecutionRequest {
  // A moment by its instant: the same moment written with another offset is the same request.
  return 'executeOn' in execution
    ? { executeOn: execution.executeOn }
    : { executeAt: new Date(Date.parse(execution.executeAt)).toISOString() };
}

function copyParty(party: TransferParty): TransferParty {
  return {
    addressType: party.addressType,
    address: party.address,
    owner: { personIdType: party.owner.personIdType, personId: party.owner.personId },
  };
}
