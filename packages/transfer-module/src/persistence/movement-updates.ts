import { isFinalStatus, type MovementStatus } from '../domain';
import type { FencedWrite, FencedWriteResult } from './engine/fenced-update';
import { CancellationEntity, HISTORY_SOURCES, type MovementEntity } from './entities';
import type { LimitUsage } from './limit-usage';
import { writeMovementChangeEvents } from './movement-change-events';
import { type CancellationRecord, toCancellationRecord, toHistoryRecord, toMovementRecord } from './movement-records';
import type { PayeeBook } from './payee-book';
import { MovementUpdateRejectedError, StoreArgumentError } from './persistence.errors';
import { checkDate, checkLeaseOwner, checkOriginId, checkStatus } from './store-arguments';
import type { StoreContext } from './store-context';
import type { ApplyUpdateResult, HistoryEntry, MovementPatch, MovementUpdate } from './store-types';

/** MovementStore's fenced updates: what was learned about a leased movement, written under its lease. */
export class MovementUpdates {
  /** A fenced update without history rows, as the engine writes those (EngineAdapter.writesWithoutHistory). */
  private readonly writeWithoutHistory: (write: FencedWrite) => Promise<MovementEntity | null>;

  constructor(
    private readonly context: StoreContext,
    private readonly usage?: LimitUsage,
    private readonly payees?: PayeeBook,
  ) {
    this.writeWithoutHistory = context.engine.writesWithoutHistory(
      async (write) => (await this.writeStatement(write))?.movement ?? null,
    );
  }

  /** A fenced write that is one statement (see applyUpdate), outside any other transaction. */
  private async writeAlone(write: FencedWrite): Promise<FencedWriteResult | null> {
    if (write.history.length === 0) {
      const movement = await this.writeWithoutHistory(write);
      return movement && { movement, history: [] };
    }
    return this.writeStatement(write);
  }

  /** The fenced write as a statement of its own (Transactions.writeStatement). */
  private writeStatement(write: FencedWrite): Promise<FencedWriteResult | null> {
    return this.context.transactions.writeStatement((manager) => this.context.engine.fencedWrite(manager, write));
  }

  /**
   * Writes what was learned about a leased movement: the patch, its history rows and (when it becomes FAILED)
   * its cancellation, all in one transaction, only while the caller's lease is unexpired.
   * Throws MovementUpdateRejectedError for an update that breaks the movement's rules (nothing written).
   */
  async applyUpdate(originId: number, owner: string, update: MovementUpdate): Promise<ApplyUpdateResult> {
    checkOriginId(originId);
    checkLeaseOwner(owner);
    checkPatch(update.patch);
    for (const [index, entry] of (update.history ?? []).entries()) checkHistoryEntry(entry, `history[${index}]`);
    const now = this.context.nowMs();
    const status = update.patch.status;
    // Built property by property, not spread then added to: see answerPatch (movement/movement-plan.ts).
    const values = patchColumns(update.patch);
    if (status !== undefined && isFinalStatus(status)) {
      values.nextQueryAtMs = null;
      // Kept when it already was final (the fenced write keeps it): the first final answer's time is the day's.
      values.finalAtMs = now;
    }
    if (update.releaseLease) {
      values.leaseOwner = null;
      values.leaseExpiresAtMs = null;
    }
    values.updatedAtMs = now;
    const guard = guardOf(update);
    const write: FencedWrite | undefined = guard && {
      originId,
      owner,
      nowMs: now,
      values,
      countQuery: update.countQuery === true,
      uncountSend: update.uncountSend === true,
      history: (update.history ?? []).map((entry) => ({
        to: entry.to,
        source: entry.source,
        detail: entry.detail === undefined ? null : JSON.stringify(entry.detail),
      })),
      guard,
    };
    // An update that writes nothing beside its own rows is ONE statement, atomic on its own: an answer that
    // changes no status (on Postgres possibly one row of a batch statement), and where the engine writes a row and
    // its history in one statement (oneStatementWrites) also one with history rows when no events go with them. When it matches nothing, the transaction below only
    // tells why (only the lease's owner changes a leased row, so running the same update again could not match).
    const oneStatement =
      write !== undefined &&
      !update.cancellation &&
      !update.payee &&
      (write.history.length === 0 || (this.context.engine.capabilities.oneStatementWrites && !this.context.outbox));
    if (oneStatement) {
      const written = await this.writeAlone(write);
      if (written) {
        const history = written.history.map(toHistoryRecord);
        return { applied: true, movement: toMovementRecord(written.movement), history, cancellation: null };
      }
    }
    const result: ApplyUpdateResult = await this.context.transactions.write(async (manager) => {
      const written = write && !oneStatement && (await this.context.engine.fencedWrite(manager, write));
      if (!written) {
        // Nothing written: read the row to tell a lost lease from an update the rules refuse.
        const row = await this.context.getMovement(manager, originId, { lock: true });
        if (row.leaseOwner !== owner || row.leaseExpiresAtMs === null || row.leaseExpiresAtMs <= now) {
          return { applied: false };
        }
        checkTransition(row, status ?? row.status, update);
        throw new MovementUpdateRejectedError(originId, 'the movement changed during the update');
      }
      let cancellation: CancellationRecord | null = null;
      if (update.cancellation) {
        const entity: CancellationEntity = {
          originId,
          amount: written.movement.amount,
          currencyId: written.movement.currencyId,
          reasonCode: update.cancellation.code,
          reasonMessage: update.cancellation.message,
          createdAtMs: now,
          acknowledgedAtMs: null,
          reference: null,
          acknowledgedByKeyId: null,
          acknowledgedByName: null,
        };
        // The primary key refuses a second cancellation: the whole update then rolls back.
        await manager
          .createQueryBuilder()
          .insert()
          .into(CancellationEntity)
          .values(entity)
          .updateEntity(false)
          .execute();
        cancellation = toCancellationRecord(entity);
      }
      const movement = toMovementRecord(written.movement);
      // FAILED did not go out: its share of its account's daily limits is free again, in this same transaction
      // (only the update that makes it FAILED writes a cancellation, so a share is freed once). The day is the
      // one the intent counted in, whatever the limits are now.
      const { usageDay } = written.movement;
      if (update.cancellation && usageDay !== null && this.usage) {
        await this.usage.free(manager, {
          address: movement.intent.from.address,
          day: usageDay,
          amount: movement.amount,
        });
      }
      const history = written.history.map(toHistoryRecord);
      // Learned once per transfer: by the update that made it COMPLETED (a final status never changes again).
      if (update.payee && this.payees && history.some((row) => row.to === 'COMPLETED' && row.source !== 'anomaly')) {
        await this.payees.learn(manager, update.payee);
      }
      if (this.context.outbox && history.length > 0) {
        await writeMovementChangeEvents(
          manager,
          this.context,
          this.context.outbox,
          { movement, appended: history, cancellation },
          now,
        );
      }
      return { applied: true, movement, history, cancellation };
    });
    if (result.applied && result.history.length > 0) this.context.outbox?.committed();
    return result;
  }
}

function checkPatch(patch: MovementPatch): void {
  if (typeof patch !== 'object' || patch === null) throw new StoreArgumentError('patch', 'type', 'must be an object');
  if (patch.status !== undefined) checkStatus(patch.status, 'patch.status');
  for (const field of ['lastAnswerAt', 'nextQueryAt'] as const) {
    if (patch[field] !== undefined && patch[field] !== null) checkDate(patch[field], `patch.${field}`);
  }
}

function checkHistoryEntry(entry: HistoryEntry, field: string): void {
  checkStatus(entry?.to, `${field}.to`);
  if (!(HISTORY_SOURCES as readonly unknown[]).includes(entry.source)) {
    throw new StoreArgumentError(`${field}.source`, 'history_source', `must be one of ${HISTORY_SOURCES.join(', ')}`);
  }
}

/**
 * The rules of `checkTransition` decided from the update alone, as the statuses the movement may have now
 * (checked in the same statement as the write); undefined when no status would do.
 */
function guardOf(update: MovementUpdate): FencedWrite['guard'] | undefined {
  const status = update.patch.status;
  if (status === undefined) return update.cancellation ? undefined : { kind: 'any' };
  const mayStay = !update.cancellation;
  const mayChange =
    (update.history ?? []).some((entry) => entry.to === status && entry.source !== 'anomaly') &&
    (status === 'FAILED') === Boolean(update.cancellation);
  if (mayStay && mayChange) return { kind: 'same-or-changing', status };
  if (mayStay) return { kind: 'only', status };
  if (mayChange) return { kind: 'changing', status };
  return undefined;
}

/** The rules of a movement's life that the store keeps even if a caller forgets them. */
function checkTransition(row: MovementEntity, status: MovementStatus, update: MovementUpdate): void {
  const reject = (reason: string) => new MovementUpdateRejectedError(row.originId, reason);
  const changes = status !== row.status;
  if (changes && isFinalStatus(row.status)) {
    throw reject(`${row.status} is final and cannot become ${status} (record an anomaly instead)`);
  }
  if (changes && !(update.history ?? []).some((entry) => entry.to === status && entry.source !== 'anomaly')) {
    throw reject(`the change to ${status} needs a history entry to ${status}`);
  }
  const becomesFailed = changes && status === 'FAILED';
  if (becomesFailed && !update.cancellation) throw reject('FAILED needs its cancellation in the same update');
  if (!becomesFailed && update.cancellation)
    throw reject('a cancellation is written only when the status becomes FAILED');
}

function patchColumns(patch: MovementPatch): Partial<MovementEntity> {
  const columns: Partial<MovementEntity> = {};
  if (patch.status !== undefined) columns.status = patch.status;
  if (patch.bankMovementId !== undefined) columns.bankMovementId = patch.bankMovementId;
  if (patch.networkId !== undefined) columns.networkId = patch.networkId;
  if (patch.network !== undefined) columns.network = patch.network;
  if (patch.debinId !== undefined) columns.debinId = patch.debinId;
  if (patch.postingDatetime !== undefined) columns.postingDatetime = patch.postingDatetime;
  if (patch.completedDatetime !== undefined) columns.completedDatetime = patch.completedDatetime;
  if (patch.lastBankAnswer !== undefined) {
    columns.lastBankAnswer = patch.lastBankAnswer === null ? null : JSON.stringify(patch.lastBankAnswer);
  }
  if (patch.lastError !== undefined) columns.lastError = patch.lastError;
  if (patch.lastAnswerAt !== undefined) columns.lastAnswerAtMs = patch.lastAnswerAt?.getTime() ?? null;
  if (patch.nextQueryAt !== undefined) columns.nextQueryAtMs = patch.nextQueryAt?.getTime() ?? null;
  if (patch.queriesHeldUntil !== undefined) columns.queriesHeldUntilMs = patch.queriesHeldUntil?.getTime() ?? null;
  return columns;
}
