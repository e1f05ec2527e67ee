import { Inject, Injectable } from '@nestjs/common';
import { amountFromCents, businessDayBounds, businessDayOf, type MovementStatus, transferLimitsOf } from '../domain';
import { RESOLVED_TRANSFER_OPTIONS, type ResolvedTransferOptions } from '../options';
import { MovementStore } from '../persistence';
import type { ScheduledDay, SendingOptions, TransferOverview } from './transfer-overview';

/** The movements counted: what a back office looks at first, and the figures of a host's metrics. */
@Injectable()
export class TransferOverviewService {
  constructor(
    @Inject(RESOLVED_TRANSFER_OPTIONS) private readonly options: ResolvedTransferOptions,
    @Inject(MovementStore) private readonly store: MovementStore,
  ) {}

  /**
   * What a back office looks at first: movements per status, what completed among today's (a Buenos Aires day),
   * the oldest one still open, what waits for someone (anomalies, cancellations to register, approvals), and
   * what is scheduled to leave today and tomorrow.
   */
  async overview(): Promise<TransferOverview> {
    const todayDay = businessDayOf(this.options.clock.now());
    const today = businessDayBounds(todayDay);
    const tomorrowDay = businessDayOf(today.end);
    const [countsByStatus, completed, oldest, anomaliesOpen, cancellationsToRegister, todays, tomorrows] =
      await Promise.all([
        this.store.countByStatus(),
        this.store.completedTotals(today.start, today.end),
        this.store.oldestNonFinal(),
        this.store.countUnresolvedAnomalies(),
        this.store.countUnacknowledgedCancellations(),
        this.store.scheduledTotals(today.start, today.end),
        this.scheduledOn(tomorrowDay),
      ]);
    return {
      countsByStatus,
      sentToday: completed.map((total) => ({
        currencyId: total.currencyId,
        amount: amountFromCents(total.cents),
        count: total.count,
      })),
      oldestNonFinal: oldest && { ...oldest, createdAt: oldest.createdAt.toISOString() },
      anomaliesOpen,
      cancellationsToRegister,
      awaitingApproval: countsByStatus.AWAITING_APPROVAL,
      scheduled: { today: scheduledDay(todayDay, todays), tomorrow: scheduledDay(tomorrowDay, tomorrows) },
    };
  }

  private scheduledOn(day: string) {
    const { start, end } = businessDayBounds(day);
    return this.store.scheduledTotals(start, end);
  }

  /** The currencies, concepts and source accounts a transfer may be sent with, as the options configured them. */
  sendingOptions(): SendingOptions {
    const limits = transferLimitsOf(this.options.transferRules);
    const accounts = this.options.sourceAccounts;
    return {
      currencies: limits.currencies,
      concepts: limits.concepts,
      sourceAccounts:
        accounts === undefined ? null : [...accounts].map(([address, ownerPersonId]) => ({ address, ownerPersonId })),
      psp: this.options.psp,
    };
  }

  /** How many movements are in each status (every status present, 0 included): for metrics and tests. */
  countByStatus(): Promise<Record<MovementStatus, number>> {
    return this.store.countByStatus();
  }

  /** Cancellations the host has not registered yet. */
  countUnacknowledgedCancellations(): Promise<number> {
    return this.store.countUnacknowledgedCancellations();
  }

  /** Anomalies no operator has resolved yet (AnomalyService lists and resolves them): for metrics. */
  countUnresolvedAnomalies(): Promise<number> {
    return this.store.countUnresolvedAnomalies();
  }

  /** When the oldest movement that is not final was created, or null when none is open: for metrics. */
  oldestNonFinalCreatedAt(): Promise<Date | null> {
    return this.store.oldestNonFinalCreatedAt();
  }
}

function scheduledDay(day: string, totals: { currencyId: string; count: number; cents: bigint }[]): ScheduledDay {
  return {
    day,
    totals: totals.map((total) => ({
      currencyId: total.currencyId,
      amount: amountFromCents(total.cents),
      count: total.count,
    })),
  };
}
