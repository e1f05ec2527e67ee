import type { EntityManager } from 'typeorm';
import {
  AWAITING_APPROVAL_STATUS,
  amountToCents,
  businessDayOf,
  hasDailyLimit,
  isDecimalAmount,
  type MovementStatus,
  PENDING_STATUS,
  SCHEDULED_STATUS,
  type TransferIntent,
} from '../domain';
import type { NewMovementHistory } from './engine/movement-insert';
import type { OutboxStatements } from './engine/outbox-write';
import type { MovementEntity, MovementHistoryEntity } from './entities';
import type { LimitUsage } from './limit-usage';
import { type HistoryRecord, type RecordedActor, toHistoryRecord, toMovementRecord } from './movement-records';
import { OriginIdAllocator } from './origin-id-allocator';
import { type Outbox, type OutboxEvent, outboxStatements, writeOutboxEvents } from './outbox';
import { StoreArgumentError } from './persistence.errors';
import { checkActor, checkInteger, checkLeaseMs, checkLeaseOwner, checkOriginId } from './store-arguments';
import type { StoreContext } from './store-context';
import { APPROVAL_HOLDS, type RecordIntentOptions, type RecordIntentResult } from './store-types';

const FINGERPRINT = /^[0-9a-f]{64}$/;

/** MovementStore's intents: new originIds, and each intent stored before anything is sent. */
export class MovementIntents {
  private readonly allocator: OriginIdAllocator;
  private readonly usage: LimitUsage | undefined;

  constructor(
    private readonly context: StoreContext,
    options: { originIdBlockSize?: number; usage?: LimitUsage } = {},
  ) {
    this.usage = options.usage;
    this.allocator = new OriginIdAllocator(context.dataSource, context.clock, {
      transactions: context.transactions,
      blockSize: options.originIdBlockSize,
    });
  }

  /** `count` new originIds, never handed out before (see OriginIdAllocator). */
  allocateOriginIds(count: number): Promise<number[]> {
    return this.allocator.allocate(count);
  }

  /**
   * Stores the intent as PENDING, due at once (a sweep re-sends it if the caller dies before sending). With
   * `sendNow` it is leased to the caller and counted as one send, durably, before the caller sends. With
   * `awaitingApproval` it is stored AWAITING_APPROVAL instead: not due, never claimed, until approved. With
   * `scheduled` (and no approval to wait for) it is stored SCHEDULED: not due, never claimed, until released at
   * its moment; its limits count on that moment's day.
   */
  async recordIntent(
    intent: TransferIntent,
    fingerprint: string,
    options: RecordIntentOptions,
  ): Promise<RecordIntentResult> {
    const originId = checkOriginId(intent?.originId, 'intent.originId');
    if (!isDecimalAmount(intent.amount)) {
      throw new StoreArgumentError('intent.amount', 'amount', 'must be a canonical decimal string like "1234.50"');
    }
    if (typeof fingerprint !== 'string' || !FINGERPRINT.test(fingerprint)) {
      throw new StoreArgumentError('fingerprint', 'sha256_hex', 'must be 64 lowercase hexadecimal characters');
    }
    const lease = options.sendNow
      ? { owner: checkLeaseOwner(options.owner), leaseMs: checkLeaseMs(options.leaseMs) }
      : undefined;
    const approvalExpiresAtMs =
      'awaitingApproval' in options
        ? checkInteger(
            options.awaitingApproval?.expiresAtMs,
            'awaitingApproval.expiresAtMs',
            0,
            Number.MAX_SAFE_INTEGER,
          )
        : null;
    const executeAtMs =
      'scheduled' in options && options.scheduled !== undefined
        ? checkInteger(options.scheduled.executeAtMs, 'scheduled.executeAtMs', 0, Number.MAX_SAFE_INTEGER)
        : null;
    const by = options.by === undefined ? null : checkActor(options.by, 'by');
    const holds = 'awaitingApproval' in options ? options.awaitingApproval?.holds : undefined;
    if (holds !== undefined && !holds.every((hold) => (APPROVAL_HOLDS as readonly unknown[]).includes(hold))) {
      throw new StoreArgumentError('awaitingApproval.holds', 'approval_hold', `must be some of ${APPROVAL_HOLDS}`);
    }
    // A hold other than the amount's is written down: the amount rule alone is what a row without detail meant.
    const intentDetail = holds?.some((hold) => hold !== 'amount') ? JSON.stringify({ holds }) : null;
    const status: MovementStatus =
      approvalExpiresAtMs !== null
        ? AWAITING_APPROVAL_STATUS
        : executeAtMs !== null
          ? SCHEDULED_STATUS
          : PENDING_STATUS;
    const now = this.context.nowMs();
    const address = intent.from?.address;
    const limits = this.usage?.limitsOf(address);
    // The day the intent counts in, when a daily limit applies to its account (its execution day when it is
    // scheduled): FAILED frees that day's share.
    const usageDay = limits && hasDailyLimit(limits) ? businessDayOf(new Date(executeAtMs ?? now)) : null;
    const row: MovementEntity = {
      originId,
      intent: JSON.stringify(intent),
      fingerprint,
      status,
      amount: intent.amount,
      currencyId: intent.currencyId,
      amountCents: Number(amountToCents(intent.amount)),
      fromAddress: intent.from.address,
      fromPersonId: intent.from.owner.personId,
      toAddress: intent.to.address,
      toPersonId: intent.to.owner.personId,
      description: intent.description,
      usageDay,
      approvalExpiresAtMs,
      executeAtMs,
      bankMovementId: null,
      networkId: null,
      network: null,
      debinId: null,
      postingDatetime: null,
      completedDatetime: null,
      lastBankAnswer: null,
      attempts: lease ? 1 : 0,
      queries: 0,
      lastError: null,
      lastAnswerAtMs: null,
      // A transfer awaiting its approval or its moment is not due: no claim takes it, nothing sends it.
      nextQueryAtMs: status === PENDING_STATUS ? now : null,
      queriesHeldUntilMs: null,
      leaseOwner: lease?.owner ?? null,
      leaseExpiresAtMs: lease ? now + lease.leaseMs : null,
      version: 1,
      finalAtMs: null,
      createdAtMs: now,
      updatedAtMs: now,
    };
    const { outbox, audit } = this.context;
    // The movement, its first history row and the outbox's events are one statement where the engine allows it
    // (oneStatementWrites): alone, without BEGIN and COMMIT, unless a limit's share or an audit row must be written
    // in the same transaction.
    if (this.context.engine.capabilities.oneStatementWrites && !limits && !audit?.isRecording()) {
      const events =
        outbox && outboxStatements(this.context.engine, this.intentEvents(outbox, row, by, intentDetail), now);
      const first = await this.context.transactions.writeStatement((manager) =>
        this.insertWithHistory(manager, row, by, intentDetail, events),
      );
      if (first === null) {
        const stored = await this.context.transactions.read((manager) => this.context.getMovement(manager, originId));
        return { movement: toMovementRecord(stored), created: false };
      }
      if (events !== undefined) outbox?.committed();
      return { created: true, movement: toMovementRecord(row), history: [toHistoryRecord(first)] };
    }
    const result: RecordIntentResult = await this.context.transactions.write(async (manager) => {
      // No look-up first: the primary key already tells whether the originId is taken (the common case, a
      // new id, then costs one statement less).
      const first = await this.insertWithHistory(manager, row, by, intentDetail);
      if (first === null) {
        return { movement: toMovementRecord(await this.context.getMovement(manager, originId)), created: false };
      }
      // Only a new intent takes a share (a replay of its originId counts nothing): throws when a limit would be
      // passed, and the movement's insert rolls back with it. No limits for its account: no statement.
      if (limits) await this.usage?.take(manager, { address, day: usageDay, amount: intent.amount });
      const history = toHistoryRecord(first);
      const movement = toMovementRecord(row);
      if (outbox) {
        const change = { movement: { ...movement, history: [history], cancellation: null }, appended: [history] };
        await writeOutboxEvents(manager, this.context.engine, outbox.render(change, now), now);
      }
      // Last: the audit row (an admin request's) holds the trail's lock until the commit.
      await audit?.recordChange(manager, {
        originId,
        before: null,
        after: { status: movement.status, amount: movement.amount, currencyId: movement.currencyId },
      });
      return { created: true, movement, history: [history] };
    });
    if (result.created) this.context.outbox?.committed();
    return result;
  }

  /**
   * Inserts a new movement and its first history row (null → its status), and with `events` the outbox's rows, and
   * returns that history row; null when its originId is already stored (nothing written).
   */
  private insertWithHistory(
    manager: EntityManager,
    row: MovementEntity,
    by: RecordedActor | null,
    detail: string | null,
    events?: OutboxStatements,
  ): Promise<MovementHistoryEntity | null> {
    return this.context.engine.insertMovement(manager, row, this.firstHistory(row, by, detail), events);
  }

  private firstHistory(row: MovementEntity, by: RecordedActor | null, detail: string | null): NewMovementHistory {
    return {
      status: row.status,
      atMs: row.createdAtMs,
      source: 'intent',
      detail,
      actorKeyId: by?.keyId ?? null,
      actorName: by?.name ?? null,
    };
  }

  /**
   * The events of a new intent, rendered before the statement that writes them with it: from its first history
   * row as that statement writes it, whose id, which no event carries, the database gives.
   */
  private intentEvents(
    outbox: Outbox,
    row: MovementEntity,
    by: RecordedActor | null,
    detail: string | null,
  ): OutboxEvent[] {
    const history: HistoryRecord = {
      id: 0,
      originId: row.originId,
      from: null,
      to: row.status,
      at: new Date(row.createdAtMs),
      source: 'intent',
      detail: detail === null ? null : JSON.parse(detail),
      by: by === null ? null : { keyId: by.keyId, name: by.name },
    };
    const change = {
      movement: { ...toMovementRecord(row), history: [history], cancellation: null },
      appended: [history],
    };
    return outbox.render(change, row.createdAtMs);
  }
}
