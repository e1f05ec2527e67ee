// Every code an error answer of giro may carry, with the HTTP status it is answered with and what it means:
// the one declaration of them. GiroError takes its status from here, the admin API's filters answer with it, and
// docs/errors.md is generated from it (scripts/errors-doc.mjs). A code, once published, never changes meaning.

interface ErrorCodeDeclaration {
  /** The HTTP status the code is answered with. */
  status: number;
  /** What it means and what the caller may do, in one line (docs/errors.md). */
  doc: string;
}

export const ERROR_CODES = {
  // Any route: the request as it came.
  VALIDATION_FAILED: {
    status: 400,
    doc: "The request was refused as it is (its body, query or path): `violations` names each field at fault, its rule and the rule's params. Nothing changed.",
  },
  UNAUTHORIZED: { status: 401, doc: 'No bearer credential, or one that is unknown or revoked.' },
  FORBIDDEN: {
    status: 403,
    doc: "The credential's role does not allow the route (`requiredRole`, `role`).",
  },
  NOT_FOUND: { status: 404, doc: 'No such route.' },
  PAYLOAD_TOO_LARGE: { status: 413, doc: 'The body is larger than the route accepts (`violations` says the limit).' },
  UNSUPPORTED_MEDIA_TYPE: {
    status: 415,
    doc: 'The body is not of a type the route reads (its Content-Type, charset or encoding).',
  },
  RATE_LIMITED: {
    status: 429,
    doc: 'Too many requests from this credential or address: wait for `Retry-After` seconds.',
  },
  REQUEST_REFUSED: {
    status: 400,
    doc: 'Another refusal of the request, by an HTTP status without a code of its own (`statusCode` says which).',
  },
  // Transfers.
  TRANSFER_NOT_FOUND: { status: 404, doc: 'No transfer has this originId (`originId`).' },
  TRANSFER_CONFLICT: {
    status: 409,
    doc: 'This originId is stored already with another payload: an originId is never sent again with other data (`originId`).',
  },
  LIMIT_EXCEEDED: {
    status: 422,
    doc: 'The transfer would pass a limit of its source account (`violations`: the limit and what remains). Nothing was stored; it may fit later.',
  },
  SCHEDULE_REFUSED: {
    status: 422,
    doc: "The transfer's execution day or moment cannot be kept (`violations`: a past day, a non-business day under the policy `refuse`, a year the calendar does not cover, too far ahead). Nothing was stored.",
  },
  TRANSFER_NOT_SCHEDULED: {
    status: 409,
    doc: 'Only a SCHEDULED transfer can be canceled; this one is not (`originId`, `status`): sent already, or final.',
  },
  MOVEMENT_BUSY: {
    status: 409,
    doc: 'Another worker is handling this transfer right now: try again shortly (`originId`).',
  },
  POLL_TOO_SOON: {
    status: 429,
    doc: 'The polling rule does not allow asking the bank about this transfer yet (`originId`, `retryAt`, `Retry-After`).',
  },
  UNSENT_TRANSFER: {
    status: 409,
    doc: 'The transfer was never sent and is not to be (`originId`, `status`): nothing to send again or to ask the bank about.',
  },
  CANCELLATION_NOT_FOUND: {
    status: 404,
    doc: 'This transfer has no cancellation (it is unknown or has not FAILED) (`originId`).',
  },
  PSP_MODE_REQUIRED: { status: 403, doc: "Client sub-accounts need PSP mode (the module's `psp` option, PSP_MODE)." },
  SUB_ACCOUNT_NOT_FOUND: { status: 404, doc: 'No client sub-account is registered with this address (`address`).' },
  SUB_ACCOUNT_CONFLICT: {
    status: 409,
    doc: 'This sub-account is registered to another holder: a sub-account never changes hands (`address`).',
  },
  // Payees.
  PAYEE_BLOCKED: {
    status: 422,
    doc: 'The destination account is blocked in the payee book (`address`): nothing was stored or sent. An approver may unblock it.',
  },
  PAYEE_NOT_FOUND: { status: 404, doc: 'The payee book has no entry for this account (`address`).' },
  STATEMENT_NOT_FOUND: { status: 404, doc: 'No statement import has this id (`id`).' },
  // Approvals.
  APPROVAL_NOT_AWAITED: {
    status: 409,
    doc: 'The transfer is not awaiting approval: decided already, or it never waited (`originId`, `status`).',
  },
  APPROVAL_EXPIRED: {
    status: 409,
    doc: 'The approval expired: the transfer ends REJECTED, never sent (`originId`, `expiredAt`).',
  },
  SELF_APPROVAL: {
    status: 403,
    doc: 'The key that created a transfer cannot decide on it: another approver must (`originId`).',
  },
  APPROVAL_SAME_PERSON: {
    status: 403,
    doc: "The approver's key and the creator's key are taken for one person's: one minted the other, or one credential minted both (`originId`, `creatorKeyId`, `approverKeyId`, `relation`). A key minted by someone else must approve.",
  },
  BOOTSTRAP_CANNOT_APPROVE: {
    status: 403,
    doc: 'The bootstrap admin token (and the command line) mint keys but never approve: approve with an approver key (`originId`).',
  },
  // Anomalies.
  ANOMALY_NOT_FOUND: { status: 404, doc: 'No anomaly has this id (`anomalyId`).' },
  ANOMALY_ALREADY_RESOLVED: {
    status: 409,
    doc: 'The anomaly was resolved already; the first resolution stays (`anomalyId`, `resolution`).',
  },
  // API keys.
  API_KEY_NAME_TAKEN: {
    status: 409,
    doc: 'A key with this name exists, active or revoked: names are never reused (`name`).',
  },
  API_KEY_NOT_FOUND: { status: 404, doc: 'No API key has this name (`name`).' },
  // Webhooks.
  WEBHOOK_ENDPOINT_NOT_FOUND: { status: 404, doc: 'No webhook endpoint has this id (`endpointId`).' },
  WEBHOOK_DELIVERY_NOT_FOUND: { status: 404, doc: 'No webhook delivery has this id (`deliveryId`).' },
  WEBHOOKS_DISABLED: {
    status: 409,
    doc: "The application runs without the module's `webhooks` option: nothing is delivered.",
  },
  SECRET_UNREADABLE: {
    status: 500,
    doc: 'A secret stored encrypted cannot be decrypted with the encryption keys given (`keyId`): the key it was sealed with is missing, or the value was altered.',
  },
  // The bank, by what the caller must do. `bankCode` is the bank's own code, when it gave one.
  BANK_NOT_SENT: { status: 502, doc: 'The bank could not be reached; nothing left: safe to try again.' },
  BANK_REJECTED: { status: 502, doc: 'The bank refused the request (a 4xx): it did not go out.' },
  BANK_CONFLICT: { status: 502, doc: 'The bank answered 409: a repeated originId, or another conflict (`bankCode`).' },
  BANK_OUTCOME_UNKNOWN: {
    status: 502,
    doc: 'The bank may have processed the request (a timeout, a reset, a 5xx): a lookup resolves it.',
  },
  BANK_MALFORMED_ANSWER: {
    status: 502,
    doc: 'The bank answered something that cannot be trusted (unparseable, unknown status): outcome unknown.',
  },
  BANK_AUTH_FAILED: { status: 502, doc: "The bank refused giro's credentials." },
  BANK_RATE_LIMITED: { status: 502, doc: 'The bank asked to wait before more requests.' },
  BANK_MOVEMENT_NOT_FOUND: { status: 404, doc: 'The bank does not know this movement.' },
  BANK_LOOKUP_FAILED: {
    status: 502,
    doc: 'A lookup at the bank got no usable answer; the transfer keeps its state and the sweep asks again (`originId`).',
  },
  // The service.
  SWEEP_UNAVAILABLE: { status: 503, doc: 'No sweep can start now (the application is shutting down, say).' },
  BATCH_INTERRUPTED: {
    status: 503,
    doc: 'A batch stopped part way (the database failed): rows before `row` were done, the others were not; send it again.',
  },
  DATABASE_UNAVAILABLE: {
    status: 503,
    doc: 'The database is unavailable for now; nothing was changed: try again after `Retry-After` seconds.',
  },
  SERVICE_UNAVAILABLE: {
    status: 503,
    doc: 'The route needs a service the application does not provide (approvals, anomalies, keys, the audit trail).',
  },
  INTERNAL: {
    status: 500,
    doc: 'An unexpected failure of the server; its details are in its log, never in the answer.',
  },
  INVALID_OPTIONS: {
    status: 500,
    doc: "A module's options are missing or invalid (at start, never an answer); the message names the option.",
  },
} as const satisfies Record<string, ErrorCodeDeclaration>;

/** A stable, UPPER_SNAKE code of an error answer. */
export type ErrorCode = keyof typeof ERROR_CODES;

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.hasOwn(ERROR_CODES, value);
}

/** The code of an answer that says no more than its HTTP status (a guard's 401, Nest's 404, a body refused). */
const CODE_OF_STATUS: Readonly<Record<number, ErrorCode>> = {
  400: 'VALIDATION_FAILED',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  429: 'RATE_LIMITED',
  503: 'SERVICE_UNAVAILABLE',
};

export function errorCodeForStatus(status: number): ErrorCode {
  return CODE_OF_STATUS[status] ?? (status >= 500 ? 'INTERNAL' : 'REQUEST_REFUSED');
}
