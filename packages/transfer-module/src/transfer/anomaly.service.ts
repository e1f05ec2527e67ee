import { Inject, Injectable } from '@nestjs/common';
import { type AnomalyKind, typeProblem, type Violation } from '../domain';
import {
  type AnomalyListItemView,
  toAnomalyListItemView,
  toUnknownDebitView,
  type UnknownDebitView,
} from '../movement';
import { MAX_NOTE_LENGTH, MovementStore, type RecordedActor } from '../persistence';
import { asValidation } from './store-argument-errors';
import { TransferValidationError } from './transfer.errors';

const RESOLUTION_FIELDS = ['note'];

/**
 * The anomalies giro raised — bank answers that contradicted what it knows (a final status), recorded and never
 * applied — and their closing by an operator. Resolving one records who, when and why, beside the anomaly (the
 * history stays append-only); the movement is not touched and keeps following its own rules.
 */
@Injectable()
export class AnomalyService {
  constructor(@Inject(MovementStore) private readonly store: MovementStore) {}

  /**
   * Anomalies of every movement and the statements' debits no transfer explains, unresolved first, then newest
   * first, a page at a time (`after` = the previous page's `nextCursor`); only resolved or unresolved ones, one
   * movement's, or one kind's, when asked.
   */
  async listAnomalies(
    filter: { resolved?: boolean; originId?: number; kind?: AnomalyKind },
    page: { limit: number; after?: string },
  ): Promise<{ items: (AnomalyListItemView | UnknownDebitView)[]; nextCursor: string | null }> {
    const result = await asValidation(() =>
      this.store.listAnomalies({
        ...(filter.resolved !== undefined && { resolved: filter.resolved }),
        ...(filter.originId !== undefined && { originId: filter.originId }),
        ...(filter.kind !== undefined && { kind: filter.kind }),
        limit: page.limit,
        ...(page.after !== undefined && { after: page.after }),
      }),
    );
    return {
      items: result.items.map((item) => ('statement' in item ? toUnknownDebitView(item) : toAnomalyListItemView(item))),
      nextCursor: result.nextCursor,
    };
  }

  /**
   * Closes the anomaly `id` with `{ note }` (1 to 500 characters, required), recording `by` (the actor: a key's
   * public id and name) and the time. Throws TransferValidationError naming `note` (or an unknown field),
   * AnomalyNotFoundError, AnomalyAlreadyResolvedError (the first resolution stays: a second one is refused, not
   * merged, so no operator's note is silently dropped).
   */
  async resolveAnomaly(id: number, input: unknown, by: RecordedActor): Promise<AnomalyListItemView> {
    const note = readNote(input);
    const record = await asValidation(() => this.store.resolveAnomaly(id, { note, by }));
    return toAnomalyListItemView(record);
  }

  /** Closes the unknown debit `id` (a statement's debit no transfer explains), as resolveAnomaly an anomaly. */
  async resolveUnknownDebit(id: number, input: unknown, by: RecordedActor): Promise<UnknownDebitView> {
    const note = readNote(input);
    const record = await asValidation(() => this.store.resolveUnknownDebit(id, { note, by }));
    return toUnknownDebitView(record);
  }
}

function readNote(input: unknown): string {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw new TransferValidationError([
      { field: '', rule: 'type', ...typeProblem('object', input), message: 'must be an object { note }' },
    ]);
  }
  const violations: Violation[] = Object.keys(input)
    .filter((field) => !RESOLUTION_FIELDS.includes(field))
    .map((field) => ({
      field,
      rule: 'unknown_field',
      params: { allowed: RESOLUTION_FIELDS },
      message: `is not a known field (${RESOLUTION_FIELDS})`,
    }));
  const { note } = input as { note?: unknown };
  if (note === undefined) {
    violations.unshift({
      field: 'note',
      rule: 'required',
      params: { maxLength: MAX_NOTE_LENGTH },
      message: `is required: why the anomaly is closed, 1 to ${MAX_NOTE_LENGTH} characters`,
    });
  }
  if (violations.length > 0) throw new TransferValidationError(violations);
  return note as string;
}
