import {
  isDatabaseUnavailable,
  isValidOriginId,
  type MovementStatus,
  PayeeBlockedError,
  ScheduleRefusedError,
  TransferConflictError,
  type TransferInput,
  TransferLimitError,
  type TransferService,
  TransferValidationError,
  type Violation,
} from '@giro/transfer-module';
import type { BatchEntry, BatchInput } from './batch-entries';
import { type BatchTotals, batchTotalsOf } from './batch-totals';

/**
 * What became of a row. A dry run: `valid` (would be created), `exists` (stored with the same payload: nothing to
 * do), `conflict` (its originId is stored with another payload), `invalid`, `refused` (would pass a limit of its
 * source account, or its destination is blocked in the payee book, as things stand). A run: `created`, `replayed` (stored
 * already, same payload: nothing created), `conflict`, `invalid` (never sent), `refused` (a limit of its source
 * account, or a blocked payee).
 */
export type BatchOutcome = 'valid' | 'exists' | 'created' | 'replayed' | 'conflict' | 'invalid' | 'refused';

export interface BatchRowResult {
  row: number;
  /** Null when the row has no valid originId. */
  originId: number | null;
  outcome: BatchOutcome;
  /** The stored movement's status (created, replayed, exists). */
  status?: MovementStatus;
  /** Why the row is invalid or refused: each names its field (a CSV column) and rule. */
  violations?: Violation[];
  /** A dry run's row that passed validation: the transfer as read, for a person to check before confirming. */
  transfer?: BatchRowTransfer;
  /**
   * A dry run's `valid` row whose destination account was never paid nor approved as a payee: a first payment
   * (held for an approval when NEW_PAYEE_REQUIRES_APPROVAL is set).
   */
  newPayee?: true;
}

/** A row's transfer as the batch read it: the amount a canonical decimal (`1500.00`), CUITs as 11 digits. */
export interface BatchRowTransfer {
  fromAddress: string;
  fromCuit: string;
  toAddress: string;
  toCuit: string;
  currencyId: string;
  amount: string;
  description: string;
  concept: string;
  /**
   * When the row asked for a day or a moment still ahead: the moment it would be sent (after the calendar moved a
   * holiday or a weekend, at the release time), and what it asked for.
   */
  schedule?: { executeAt: string; requested: { executeOn: string } | { executeAt: string } };
}

export interface BatchSummary {
  total: number;
  /** Rows that pass the transfer request's rules (every outcome but `invalid`). */
  valid: number;
  invalid: number;
  created: number;
  /** Rows stored already with the same payload: `replayed`, or `exists` in a dry run. */
  replayed: number;
  conflicts: number;
  refused: number;
}

export interface BatchResult {
  dryRun: boolean;
  rows: BatchRowResult[];
  summary: BatchSummary;
  /** A dry run's money: what the rows that would be created add up to, per source account and overall. */
  totals?: BatchTotals;
}

/** The database went away in the middle of a batch: the rows before `row` are done, the rest may not be. */
export class BatchInterruptedError extends Error {
  override readonly name = 'BatchInterruptedError';

  constructor(
    readonly row: number,
    override readonly cause: unknown,
  ) {
    super(
      `the database became unavailable at row ${row}: the rows before it were done, that row and the ones after it may not be; sending the same batch again is safe, since each originId is created at most once`,
    );
  }
}

/** Who asks, as the transfer records it (an API key's public id and name). */
type Requester = { keyId: string; name: string };

type BatchTransfers = Pick<
  TransferService,
  'validateRequest' | 'requestTransfer' | 'previewReplay' | 'previewRequests' | 'previewNewPayees' | 'previewExecution'
>;

type CheckedRow =
  | { row: number; originId: number; transfer: TransferInput; executeAt?: Date }
  | { row: number; originId: number | null; violations: Violation[] };

const ORIGIN_ID_REQUIRED: Violation = {
  field: 'originId',
  rule: 'required',
  params: {},
  message: 'is required in a batch: it makes sending the same batch again create nothing twice',
};

/** Rows requested at once: a batch of 1 000 takes seconds, not minutes, while the bank budget still bounds the calls. */
export const BATCH_CONCURRENCY = 8;

/**
 * Runs a batch: each row validated by the single route's rules (TransferService.validateRequest), with an originId
 * of its own (a later row repeating one is invalid); then each valid row requested (`requestTransfer`, approvals
 * and limits applying to it as to one transfer), or, in a dry run, only looked up and then previewed (the rows it
 * would create: previewNewRows) — up to BATCH_CONCURRENCY rows at a time, taken in file order and answered in file
 * order. A row's refusal never stops the others; an outage of the
 * database does (BatchInterruptedError, naming the first row it stopped, once the rows in flight have settled).
 */
export async function runTransferBatch(
  transfers: BatchTransfers,
  input: BatchInput,
  options: { dryRun: boolean; by: Requester },
): Promise<BatchResult> {
  const named = (violations: Violation[]) =>
    violations.map((violation) => ({ ...violation, field: input.fieldName(violation.field) }));
  const checked = checkRows(transfers, input.entries);
  const rows: BatchRowResult[] = new Array(checked.length);
  let next = 0;
  // Set by the workers: the first row an outage stopped, or any other error (thrown as it is).
  const stop: { interrupted?: { row: number; error: unknown }; failed: boolean } = { failed: false };
  const work = async () => {
    while (next < checked.length && stop.interrupted === undefined && !stop.failed) {
      const row = checked[next];
      const index = next++;
      if ('violations' in row) {
        rows[index] = { row: row.row, originId: row.originId, outcome: 'invalid', violations: named(row.violations) };
        continue;
      }
      try {
        const done = options.dryRun
          ? await lookUp(transfers, row.transfer)
          : await request(transfers, row.transfer, options.by);
        rows[index] = {
          row: row.row,
          originId: row.originId,
          ...done,
          ...(done.violations && { violations: named(done.violations) }),
          ...(options.dryRun && { transfer: batchRowTransferOf(row.transfer, row.executeAt) }),
        };
      } catch (error) {
        if (!isDatabaseUnavailable(error)) {
          stop.failed = true;
          throw error;
        }
        // Rows are taken in order: every row before the first one stopped was started, and has settled by the end.
        const earlier = stop.interrupted as { row: number } | undefined;
        if (earlier === undefined || row.row < earlier.row) stop.interrupted = { row: row.row, error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(BATCH_CONCURRENCY, checked.length) }, work));
  if (stop.interrupted !== undefined) throw new BatchInterruptedError(stop.interrupted.row, stop.interrupted.error);
  if (!options.dryRun) return { dryRun: false, rows, summary: summaryOf(rows) };
  await previewNewRows(transfers, checked, rows, named);
  return { dryRun: true, rows, summary: summaryOf(rows), totals: batchTotalsOf(rows) };
}

/**
 * Every row validated before any is sent: a later row repeating an originId is that row's violation, and so is a
 * day or a moment that cannot be kept (judged now, as the create judges it).
 */
function checkRows(transfers: BatchTransfers, entries: BatchEntry[]): CheckedRow[] {
  const firstRowOf = new Map<number, number>();
  return entries.map((entry) => {
    const violations: Violation[] = [];
    let transfer: TransferInput | undefined;
    if ('unreadable' in entry) violations.push(...entry.unreadable);
    else {
      const read = entry.violations ?? [];
      violations.push(...read);
      try {
        transfer = transfers.validateRequest(entry.request);
      } catch (error) {
        if (!(error instanceof TransferValidationError)) throw error;
        // A field its cell could not be read for is named once, by that reading.
        const unread = new Set(read.map((violation) => violation.field));
        violations.push(...error.violations.filter((violation) => !unread.has(violation.field)));
      }
      if (read.length > 0) transfer = undefined;
    }
    const execution = transfer === undefined ? undefined : transfers.previewExecution(transfer);
    if (execution instanceof ScheduleRefusedError) violations.push(...execution.violations);
    const originId = transfer?.originId ?? originIdOf(entry);
    if (transfer !== undefined && transfer.originId === undefined) violations.push(ORIGIN_ID_REQUIRED);
    if (originId !== null) {
      const first = firstRowOf.get(originId);
      if (first === undefined) firstRowOf.set(originId, entry.row);
      else {
        violations.push({
          field: 'originId',
          rule: 'unique',
          params: { originId, row: first },
          message: `repeats originId ${originId} of row ${first}`,
        });
      }
    }
    if (violations.length > 0 || transfer === undefined || originId === null) {
      return { row: entry.row, originId, violations };
    }
    return { row: entry.row, originId, transfer, ...(execution instanceof Date && { executeAt: execution }) };
  });
}

/** The row's originId when it is a valid one, even in a row that is invalid otherwise (to report and count it). */
function originIdOf(entry: BatchEntry): number | null {
  if (!('request' in entry)) return null;
  const originId = (entry.request as { originId?: unknown } | null)?.originId;
  return isValidOriginId(originId) ? originId : null;
}

type RowOutcome = Pick<BatchRowResult, 'outcome' | 'status' | 'violations'>;

/** A dry run's answer about a valid row: a read, nothing written. */
async function lookUp(transfers: BatchTransfers, transfer: TransferInput): Promise<RowOutcome> {
  const stored = await transfers.previewReplay(transfer);
  if (stored === undefined) return { outcome: 'valid' };
  if (stored instanceof TransferConflictError) return { outcome: 'conflict' };
  return { outcome: 'exists', status: stored.status };
}

/**
 * A dry run's rows that would be created, checked as the run would check them where the store decides: a `from`
 * that is no registered client sub-account (PSP mode) is `invalid`; a row that would pass a limit of its source
 * account, after today's usage and the rows above it, is `refused`; a row to an account never paid nor approved as a
 * payee is flagged `newPayee`.
 */
async function previewNewRows(
  transfers: BatchTransfers,
  checked: CheckedRow[],
  rows: BatchRowResult[],
  named: (violations: Violation[]) => Violation[],
): Promise<void> {
  const indexes = rows.flatMap((row, index) => (row.outcome === 'valid' ? [index] : []));
  const answers = await transfers.previewRequests(
    indexes.map((index) => (checked[index] as { transfer: TransferInput }).transfer),
  );
  answers.forEach((answer, at) => {
    if (answer === undefined) return;
    const row = rows[indexes[at]];
    rows[indexes[at]] = {
      row: row.row,
      originId: row.originId,
      outcome: answer instanceof TransferValidationError ? 'invalid' : 'refused',
      violations: named(answer.violations),
      ...(row.transfer && { transfer: row.transfer }),
    };
  });
  const valid = indexes.filter((index) => rows[index].outcome === 'valid');
  const firstPayments = await transfers.previewNewPayees(
    valid.map((index) => (checked[index] as { transfer: TransferInput }).transfer),
  );
  firstPayments.forEach((isNew, at) => {
    if (isNew) rows[valid[at]] = { ...rows[valid[at]], newPayee: true };
  });
}

async function request(transfers: BatchTransfers, transfer: TransferInput, by: Requester): Promise<RowOutcome> {
  try {
    const { movement, created } = await transfers.requestTransfer(transfer, { by });
    return { outcome: created ? 'created' : 'replayed', status: movement.status };
  } catch (error) {
    if (error instanceof TransferConflictError) return { outcome: 'conflict' };
    if (error instanceof TransferLimitError || error instanceof PayeeBlockedError) {
      return { outcome: 'refused', violations: error.violations };
    }
    // A check that needs the store (in PSP mode, that `from` is a registered client sub-account), or a day that
    // passed since the rows were checked.
    if (error instanceof TransferValidationError || error instanceof ScheduleRefusedError)
      return { outcome: 'invalid', violations: error.violations };
    throw error;
  }
}

function summaryOf(rows: BatchRowResult[]): BatchSummary {
  const count = (...outcomes: BatchOutcome[]) => rows.filter((row) => outcomes.includes(row.outcome)).length;
  const invalid = count('invalid');
  return {
    total: rows.length,
    valid: rows.length - invalid,
    invalid,
    created: count('created'),
    replayed: count('replayed', 'exists'),
    conflicts: count('conflict'),
    refused: count('refused'),
  };
}

function batchRowTransferOf(transfer: TransferInput, executeAt: Date | undefined): BatchRowTransfer {
  return {
    fromAddress: transfer.from.address,
    fromCuit: transfer.from.owner.personId,
    toAddress: transfer.to.address,
    toCuit: transfer.to.owner.personId,
    currencyId: transfer.currencyId,
    amount: transfer.amount,
    description: transfer.description,
    concept: transfer.concept,
    ...(executeAt !== undefined &&
      transfer.execution !== undefined && {
        schedule: { executeAt: executeAt.toISOString(), requested: transfer.execution },
      }),
  };
}
