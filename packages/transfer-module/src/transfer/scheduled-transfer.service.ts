import { Inject, Injectable } from '@nestjs/common';
import { amountFromCents, type ErrorCode, GiroError } from '../domain';
import { InFlightWork, MovementEvents, type MovementView, toMovementView } from '../movement';
import { MovementNotFoundError, MovementStore, type RecordedActor, type ScheduleOutcome } from '../persistence';
import { readOriginIdList } from './origin-id-list';
import { asValidation } from './store-argument-errors';
import { checkOriginId } from './stored-movement';

/** One transfer of a bulk cancel: canceled, or refused with the error a single cancel would have thrown. */
export type CancelBatchItem =
  | { originId: number; outcome: 'canceled'; movement: MovementView }
  | { originId: number; outcome: 'refused'; error: { name: string; code: ErrorCode; message: string } };

/** The most transfers one bulk cancel takes. */
export const MAX_CANCEL_BATCH = 100;

/** Which scheduled transfers are totalled: sent in `[executeFrom, executeBefore)` (each optional), from `from`. */
export interface ScheduledTotalsQuery {
  executeFrom?: Date;
  executeBefore?: Date;
  /** One source account (CBU or CVU); all of them without it. */
  from?: string;
}

/** The scheduled transfers of one sending day (Buenos Aires) and source account, in one currency. */
export interface ScheduledTotal {
  day: string;
  from: string;
  currencyId: string;
  /** Their amounts added up, a decimal string (`1234.50`). */
  amount: string;
  count: number;
}

/** The most groups (day, account, currency) one answer of `totals` holds. */
export const MAX_SCHEDULED_TOTALS = 500;

/**
 * Scheduled transfers (requests with `executeOn` or `executeAt`): calling one off before its moment. A canceled
 * transfer ends CANCELED — final, never sent, its share of its account's limits free again. The release itself is
 * the sweep's (SweepService), so a cancel racing it decides once: the one that finds it SCHEDULED.
 */
@Injectable()
export class ScheduledTransferService {
  constructor(
    @Inject(MovementStore) private readonly store: MovementStore,
    @Inject(MovementEvents) private readonly events: MovementEvents,
    @Inject(InFlightWork) private readonly work: InFlightWork,
  ) {}

  /**
   * Cancels a SCHEDULED transfer. Throws TransferNotScheduledError (released already, or final),
   * MovementNotFoundError, TransferValidationError. `by`, who cancels, is recorded on its history row.
   */
  cancel(originId: number, by?: RecordedActor): Promise<MovementView> {
    return this.work.track(this.cancelOne(originId, by));
  }

  /**
   * `cancel` for each originId of `{ originIds: [...] }` (1 to MAX_CANCEL_BATCH, no repeats), one at a time: one
   * refused does not stop the others; each says what became of it.
   */
  cancelMany(input: unknown, by?: RecordedActor): Promise<CancelBatchItem[]> {
    const originIds = readOriginIdList(input, MAX_CANCEL_BATCH);
    return this.work.track(this.cancelEach(originIds, by));
  }

  /**
   * The SCHEDULED transfers `query` takes, counted and summed per sending day, source account and currency,
   * earliest day first, then by account: at most MAX_SCHEDULED_TOTALS groups (`truncated` when there are more).
   * Throws TransferValidationError for a bad bound or account.
   */
  async totals(query: ScheduledTotalsQuery = {}): Promise<{ items: ScheduledTotal[]; truncated: boolean }> {
    const filter = { executeFrom: query.executeFrom, executeBefore: query.executeBefore, fromAddress: query.from };
    const groups = await asValidation(() => this.store.scheduledTotalsByDay(filter, MAX_SCHEDULED_TOTALS + 1));
    return {
      items: groups.slice(0, MAX_SCHEDULED_TOTALS).map((group) => ({
        day: group.day,
        from: group.fromAddress,
        currencyId: group.currencyId,
        amount: amountFromCents(group.cents),
        count: group.count,
      })),
      truncated: groups.length > MAX_SCHEDULED_TOTALS,
    };
  }

  private async cancelOne(originId: number, by: RecordedActor | undefined): Promise<MovementView> {
    checkOriginId(originId);
    const outcome = await asValidation(() => this.store.cancelScheduled(originId, by ?? null));
    await this.announce(outcome);
    const details = await this.store.findByOriginId(originId);
    if (details === null) throw new MovementNotFoundError(originId);
    return toMovementView(details);
  }

  private async cancelEach(originIds: number[], by: RecordedActor | undefined): Promise<CancelBatchItem[]> {
    const items: CancelBatchItem[] = [];
    for (const originId of originIds) {
      try {
        items.push({ originId, outcome: 'canceled', movement: await this.cancelOne(originId, by) });
      } catch (error) {
        if (!(error instanceof Error)) throw error;
        const code = error instanceof GiroError ? error.code : 'INTERNAL';
        items.push({ originId, outcome: 'refused', error: { name: error.name, code, message: error.message } });
      }
    }
    return items;
  }

  private async announce({ movement, history }: ScheduleOutcome): Promise<void> {
    await this.events.publish(movement.originId, {
      kind: 'changed',
      from: history.from ?? 'SCHEDULED',
      to: history.to,
      source: history.source,
    });
  }
}
