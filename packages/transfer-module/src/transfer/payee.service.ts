import { Inject, Injectable } from '@nestjs/common';
import { cbuCvuProblem, cuitProblem, typeProblem, type Violation } from '../domain';
import { hiddenCharacterProblem } from '../domain/hidden-characters';
import { MovementStore, PayeeNotFoundError, type PayeeRecord, type RecordedActor } from '../persistence';
import { asValidation } from './store-argument-errors';
import { TransferValidationError } from './transfer.errors';

/** A destination account as the payee book knows it (the admin API's payee). */
export interface PayeeView {
  address: string;
  /** The CUIT giro asked for in the latest transfer to it (or the one given by hand). */
  requestedPersonId: string | null;
  /** The holder as the bank's latest completed answer named them; null before any. */
  holder: { personId: string | null; name: string | null } | null;
  /** The bank named someone else than the CUIT asked for. */
  holderDiffers: boolean;
  /** The names the bank gave before the current one, oldest first, and when the name last changed. */
  previousNames: string[];
  nameChangedAt: string | null;
  label: string | null;
  firstPaidAt: string | null;
  lastPaidAt: string | null;
  completed: { count: number; amount: string };
  /** Approved as a payee (a held first payment approved): its transfers are not held as new. */
  approved: { at: string; by: { keyId: string; name: string } | null } | null;
  /** Blocked: every transfer to it is refused (PAYEE_BLOCKED), nothing stored or sent. */
  blocked: { at: string; by: { keyId: string; name: string } | null } | null;
  createdAt: string;
  updatedAt: string;
}

const MAX_LABEL_LENGTH = 100;
const ENTRY_FIELDS = ['address', 'personId', 'label'];
const MAX_QUERY_LENGTH = 100;

/**
 * The payee book for hosts: every destination account giro paid (learned from the bank's final COMPLETED answers:
 * the holder's name and CUIT as the bank reported them, first and last paid, count and amount) or that an operator
 * added (a label, the CUIT expected). Blocking one refuses every transfer to it; with `newPayeeRequiresApproval` a
 * first payment to an account waits for an approval, which approves the payee. Roles are the caller's business
 * (the admin API lets only `approver` and `admin` keys block and unblock).
 */
@Injectable()
export class PayeeService {
  constructor(@Inject(MovementStore) private readonly store: MovementStore) {}

  /**
   * A page of payees by account (`after` = the previous page's `nextCursor`); with `q`, those whose account starts
   * with its digits or whose CUIT (asked for or reported) it is, by account, or those whose name or label starts
   * with it (case and accents ignored), by the name or label matched, then the account.
   */
  async searchPayees(
    filter: { q?: string },
    page: { limit: number; after?: string },
  ): Promise<{ items: PayeeView[]; nextCursor: string | null }> {
    const q = filter.q;
    if (q !== undefined && (typeof q !== 'string' || q.length > MAX_QUERY_LENGTH)) {
      invalid([{ field: 'q', rule: 'max_length', params: { max: MAX_QUERY_LENGTH }, message: 'is too long' }]);
    }
    const result = await asValidation(() =>
      this.store.searchPayees({
        ...(q !== undefined && { q }),
        limit: page.limit,
        ...(page.after !== undefined && { after: page.after }),
      }),
    );
    return { items: result.items.map(toPayeeView), nextCursor: result.nextCursor };
  }

  /** The payee of `address`. PayeeNotFoundError when the book has none. */
  async getPayee(address: string): Promise<PayeeView> {
    checkAddress(address);
    const payee = await this.store.findPayee(address);
    if (payee === null) throw new PayeeNotFoundError(address);
    return toPayeeView(payee);
  }

  /**
   * Adds `{ address, personId?, label? }` to the book, or labels it (the CUIT expected kept unless given). Adding
   * an account does not approve it as a payee: its first payment is still held when first payments are.
   */
  async addPayee(input: unknown): Promise<PayeeView> {
    const entry = readEntry(input);
    return toPayeeView(await this.store.addPayee(entry));
  }

  /** Refuses every transfer to `address` from now on (idempotent; the first block stays), `by` recorded. */
  async blockPayee(address: string, by: RecordedActor): Promise<PayeeView> {
    checkAddress(address);
    return toPayeeView(await asValidation(() => this.store.setPayeeBlocked(address, true, by)));
  }

  /** Accepts transfers to `address` again. PayeeNotFoundError when the book has none. */
  async unblockPayee(address: string, by: RecordedActor): Promise<PayeeView> {
    checkAddress(address);
    return toPayeeView(await asValidation(() => this.store.setPayeeBlocked(address, false, by)));
  }
}

export function toPayeeView(record: PayeeRecord): PayeeView {
  const learned = record.holderPersonId !== null || record.holderName !== null;
  return {
    address: record.address,
    requestedPersonId: record.requestedPersonId,
    holder: learned ? { personId: record.holderPersonId, name: record.holderName } : null,
    holderDiffers:
      record.holderPersonId !== null &&
      record.requestedPersonId !== null &&
      record.holderPersonId !== record.requestedPersonId,
    previousNames: record.previousNames,
    nameChangedAt: iso(record.nameChangedAt),
    label: record.label,
    firstPaidAt: iso(record.firstPaidAt),
    lastPaidAt: iso(record.lastPaidAt),
    completed: { count: record.completedCount, amount: record.completedAmount },
    approved: record.approvedAt && { at: record.approvedAt.toISOString(), by: record.approvedBy },
    blocked: record.blockedAt && { at: record.blockedAt.toISOString(), by: record.blockedBy },
    createdAt: record.createdAt.toISOString(),
    updatedAt: record.updatedAt.toISOString(),
  };
}

function iso(date: Date | null): string | null {
  return date === null ? null : date.toISOString();
}

function checkAddress(address: unknown): void {
  const violation = addressViolation(address);
  if (violation !== undefined) invalid([violation]);
}

function addressViolation(address: unknown): Violation | undefined {
  if (typeof address !== 'string') {
    return { field: 'address', rule: 'cbu_cvu', ...typeProblem('string', address), message: 'must be a CBU or CVU' };
  }
  const problem = cbuCvuProblem(address);
  return problem && { field: 'address', rule: 'cbu_cvu', ...problem };
}

function readEntry(input: unknown): { address: string; personId: string | null; label: string | null } {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    invalid([
      {
        field: '',
        rule: 'type',
        ...typeProblem('object', input),
        message: 'must be an object { address, personId?, label? }',
      },
    ]);
  }
  const fields = input as Record<string, unknown>;
  const violations: Violation[] = Object.keys(fields)
    .filter((key) => !ENTRY_FIELDS.includes(key))
    .map((key) => ({
      field: key,
      rule: 'unknown_field',
      params: { allowed: ENTRY_FIELDS },
      message: `is not a field (known: ${ENTRY_FIELDS.join(', ')})`,
    }));
  const address = addressViolation(fields.address);
  if (address !== undefined) violations.push(address);
  const personId = fields.personId ?? null;
  if (personId !== null) {
    const problem =
      typeof personId === 'string'
        ? cuitProblem(personId)
        : { ...typeProblem('string', personId), message: 'must be a CUIT or CUIL (11 digits)' };
    if (problem !== undefined) violations.push({ field: 'personId', rule: 'cuit', ...problem });
  }
  const label = fields.label ?? null;
  if (label !== null) {
    if (typeof label !== 'string' || label.trim() === '' || label.length > MAX_LABEL_LENGTH) {
      violations.push({
        field: 'label',
        rule: 'label',
        params: { max: MAX_LABEL_LENGTH },
        message: `must be text of 1 to ${MAX_LABEL_LENGTH} characters`,
      });
    } else {
      const hidden = hiddenCharacterProblem(label);
      if (hidden !== undefined) violations.push({ field: 'label', rule: 'characters', ...hidden });
    }
  }
  if (violations.length > 0) invalid(violations);
  return { address: fields.address as string, personId: personId as string | null, label: label as string | null };
}

function invalid(violations: Violation[]): never {
  throw new TransferValidationError(violations);
}
