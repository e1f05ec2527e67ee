import { amountFromWire, BANK_STATUSES, explainOriginId, isBankStatus, type Violation } from '../domain';
import type { BankCounterparty, BankMovement, BankSubAccount } from './bank-movement';
import { parseBankTimestamp } from './bank-timestamp';
import { isRecord } from './json-value';

/** What the answer must agree with: the originId or networkId the request was about. */
export interface MovementExpectation {
  originId?: number;
  networkId?: string;
}

export type ParseMovementResult = { ok: true; movement: BankMovement } | { ok: false; problems: Violation[] };

const MAX_QUOTED_LENGTH = 60;

/**
 * Reads a movement (docs/bank-api.md#movement-fields). What decides the movement's state, identifies it or
 * states its money must be exactly as the bank types it, or the answer is refused (a malformed answer, never
 * final): `status` (one of the five states, spelled exactly: no case-folding, no trimming), `id`,
 * `details.originId`, `details.networkId` (including a mismatch with the request), `details.amount` (a JSON
 * number, never a string), `details.amountCurrency` (a string, never a number) and the account it names,
 * `thisSubAccount.accountRouting.address` (a string, inside objects). Nothing is coerced from one
 * type to another. Since the bank does not say which fields are always present, only `status` is required; the
 * others may be absent, and null counts as absent (it carries no value that could be misread). The other
 * fields are informational: when unusable they become `issues` and stay in `raw`, and never fail the answer.
 */
export function parseMovement(answer: unknown, expected: MovementExpectation = {}): ParseMovementResult {
  if (!isRecord(answer)) return { ok: false, problems: [problem('', 'type', 'the answer is not a JSON object')] };
  const problems: Violation[] = [];
  const issues: Violation[] = [];

  const { status } = answer;
  if (status === undefined || status === null) problems.push(problem('status', 'required', 'status is missing'));
  else if (!isBankStatus(status)) {
    problems.push(problem('status', 'status', `status ${quote(status)} is not one of ${BANK_STATUSES.join(', ')}`));
  }

  const id = identifier(answer.id, 'id', problems);
  const details = isRecord(answer.details) ? answer.details : {};
  if (answer.details !== undefined && answer.details !== null && !isRecord(answer.details)) {
    problems.push(problem('details', 'type', 'details is not an object'));
  }

  let originId: number | undefined;
  if (details.originId !== undefined && details.originId !== null) {
    const why = explainOriginId(details.originId);
    if (why) problems.push(problem('details.originId', 'origin_id', `details.originId ${why}`));
    else if (expected.originId !== undefined && details.originId !== expected.originId) {
      problems.push(
        problem(
          'details.originId',
          'mismatch',
          `details.originId ${details.originId} is not the requested ${expected.originId}`,
        ),
      );
    } else originId = details.originId as number;
  }

  const networkId = identifier(details.networkId, 'details.networkId', problems);
  if (networkId !== undefined && expected.networkId !== undefined && networkId !== expected.networkId) {
    problems.push(problem('details.networkId', 'mismatch', 'details.networkId is not the requested one'));
  }

  let amount: BankMovement['amount'];
  if (details.amount !== undefined && details.amount !== null) {
    // The bank's type: a JSON number. A string is not accepted from the bank, even a decimal one: an answer of the
    // wrong shape must never make a movement final.
    amount = typeof details.amount === 'number' ? amountFromWire(details.amount) : undefined;
    if (amount === undefined) {
      problems.push(problem('details.amount', 'amount', `details.amount ${quote(details.amount)} is not an amount`));
    }
  }

  // The bank's type: a string. A code such as `032` sent as the number 32 has already lost its leading zero, and
  // an empty one names no currency: either way the money of the answer is not known, so it is refused.
  const amountCurrency = identifier(details.amountCurrency, 'details.amountCurrency', problems);
  const thisSubAccount = parseSubAccount(answer.thisSubAccount, problems, issues);

  if (problems.length > 0 || !isBankStatus(status)) return { ok: false, problems };

  const movement: BankMovement = { status, issues, raw: answer };
  if (id !== undefined) movement.id = id;
  if (originId !== undefined) movement.originId = originId;
  if (networkId !== undefined) movement.networkId = networkId;
  if (amount !== undefined) movement.amount = amount;
  if (amountCurrency !== undefined) movement.amountCurrency = amountCurrency;
  assignText(movement, 'network', details.network, 'details.network', issues);
  assignText(movement, 'type', details.type, 'details.type', issues);
  assignText(movement, 'typeDescription', details.typeDescription, 'details.typeDescription', issues);
  assignText(movement, 'motiveCode', details.motiveCode, 'details.motiveCode', issues);
  assignText(movement, 'message', details.message, 'details.message', issues);
  assignTimestamp(movement, 'postingDatetime', details.postingDatetime, 'details.postingDatetime', issues);
  assignTimestamp(movement, 'completedDatetime', details.completedDatetime, 'details.completedDatetime', issues);
  const counterparty = parseCounterparty(answer.counterparty, issues);
  if (counterparty) movement.counterparty = counterparty;
  if (thisSubAccount) movement.thisSubAccount = thisSubAccount;
  return { ok: true, movement };
}

function identifier(value: unknown, field: string, problems: Violation[]): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string' && value.trim() !== '') return value;
  problems.push(problem(field, 'type', `${field} ${quote(value)} is not a non-empty string`));
  return undefined;
}

type TextField = 'network' | 'type' | 'typeDescription' | 'motiveCode' | 'message';

function assignText(movement: BankMovement, key: TextField, value: unknown, field: string, issues: Violation[]): void {
  if (value === undefined || value === null) return;
  if (typeof value === 'string') movement[key] = value;
  else issues.push(problem(field, 'type', `${field} is not a string`));
}

function assignTimestamp(
  movement: BankMovement,
  key: 'postingDatetime' | 'completedDatetime',
  value: unknown,
  field: string,
  issues: Violation[],
): void {
  if (value === undefined || value === null) return;
  const instant = typeof value === 'string' ? parseBankTimestamp(value) : undefined;
  if (instant) movement[key] = instant;
  else issues.push(problem(field, 'timestamp', `${field} ${quote(value)} is not a YYYY-MM-DDThh:mm:ssZ timestamp`));
}

function parseCounterparty(value: unknown, issues: Violation[]): BankCounterparty | undefined {
  if (value === undefined || value === null) return undefined;
  if (!isRecord(value)) {
    issues.push(problem('counterparty', 'type', 'counterparty is not an object'));
    return undefined;
  }
  const routing = isRecord(value.accountRouting) ? value.accountRouting : {};
  if (value.accountRouting !== undefined && value.accountRouting !== null && !isRecord(value.accountRouting)) {
    issues.push(problem('counterparty.accountRouting', 'type', 'counterparty.accountRouting is not an object'));
  }
  const counterparty: BankCounterparty = {};
  assignTexts(
    counterparty,
    [
      ['personId', value.personId, 'counterparty.personId'],
      ['personIdType', value.personIdType, 'counterparty.personIdType'],
      ['personName', value.personName, 'counterparty.personName'],
      ['addressType', routing.addressType, 'counterparty.accountRouting.addressType'],
      ['address', routing.address, 'counterparty.accountRouting.address'],
    ],
    issues,
  );
  return counterparty;
}

/**
 * `thisSubAccount`. The account it names decides whether the answer is about this transfer at all, so that
 * account must be readable when present (an object holding a non-empty string), or the answer is refused
 * like a mistyped originId; its holder is informational.
 */
function parseSubAccount(value: unknown, problems: Violation[], issues: Violation[]): BankSubAccount | undefined {
  if (value === undefined || value === null) return undefined;
  if (!isRecord(value)) {
    problems.push(problem('thisSubAccount', 'type', 'thisSubAccount is not an object'));
    return undefined;
  }
  let routing: Record<string, unknown> = {};
  if (isRecord(value.accountRouting)) routing = value.accountRouting;
  else if (value.accountRouting !== undefined && value.accountRouting !== null) {
    problems.push(problem('thisSubAccount.accountRouting', 'type', 'thisSubAccount.accountRouting is not an object'));
  }
  const address = identifier(routing.address, 'thisSubAccount.accountRouting.address', problems);
  const owners = isRecord(value.owners) ? value.owners : {};
  if (value.owners !== undefined && value.owners !== null && !isRecord(value.owners)) {
    issues.push(problem('thisSubAccount.owners', 'type', 'thisSubAccount.owners is not an object'));
  }
  const subAccount: BankSubAccount = {};
  assignTexts(
    subAccount,
    [
      ['personId', owners.personId, 'thisSubAccount.owners.personId'],
      ['personIdType', owners.personIdType, 'thisSubAccount.owners.personIdType'],
      ['personName', owners.personName, 'thisSubAccount.owners.personName'],
      ['personType', owners.personType, 'thisSubAccount.owners.personType'],
      ['addressType', routing.addressType, 'thisSubAccount.accountRouting.addressType'],
    ],
    issues,
  );
  if (address !== undefined) subAccount.address = address;
  return subAccount;
}

/** Informational text fields: a string is kept, anything else is an issue (null counts as absent). */
function assignTexts<T extends object>(target: T, fields: [keyof T, unknown, string][], issues: Violation[]): void {
  for (const [key, value, field] of fields) {
    if (value === undefined || value === null) continue;
    if (typeof value === 'string') (target as Record<keyof T, string>)[key] = value;
    else issues.push(problem(field, 'type', `${field} is not a string`));
  }
}

/** What is wrong with the bank's answer, for its log line and `lastError` (no params: it is never an API answer). */
function problem(field: string, rule: string, message: string): Violation {
  return { field, rule, params: {}, message };
}

/** A value from the answer, for a message: JSON, cut short. */
function quote(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > MAX_QUOTED_LENGTH ? `${text.slice(0, MAX_QUOTED_LENGTH - 1)}…` : text;
}
