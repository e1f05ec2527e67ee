import { performance } from 'node:perf_hooks';
import { Inject, Injectable, type LoggerService, type OnModuleDestroy } from '@nestjs/common';
import { businessDayBounds, businessDayOf, DAILY_CLOSE_MARGIN_MS, daysAfter, previousBusinessDay } from '../domain';
import { inSpan } from '../domain/tracing';
import {
  describeError,
  emptyFollowUpStep,
  InFlightWork,
  LEASE_OWNER,
  MOVEMENT_LOGGER,
  MovementEvents,
  MovementSender,
  movementLogLine,
  QuerySchedule,
} from '../movement';
import { RESOLVED_TRANSFER_OPTIONS, type ResolvedTransferOptions } from '../options';
import { type ClaimedMovement, MovementStore } from '../persistence';
import { DatabaseOutageNotice } from '../persistence/database-outage-notice';
import { isDatabaseUnavailable } from '../persistence/database-unavailable';
import { SweepPipeline } from './sweep-pipeline';
import { addStep, emptySweepReport, type SweepReport } from './sweep-report';

/** The most ended days one sweep announces after a long stop (a month): older missed days are not announced. */
const MAX_DAYS_CAUGHT_UP = 31;

/** What a claim's release of a scheduled transfer announces. */
const RELEASE_ANNOUNCEMENT = { kind: 'changed', from: 'SCHEDULED', to: 'PENDING', source: 'release' } as const;

/**
 * Brings every non-final movement to its final state, one sweep at a time. A sweep claims the movements due
 * when it started with a lease, in batches (creations first), works on a few at once through the shared bank
 * budget (claiming the next batch before the slots run dry), writes each result fenced on its lease, and
 * releases it. One movement's failure never stops a sweep. Many instances (replicas) may sweep the same
 * database at once: the leases keep them off each other's rows.
 */
@Injectable()
export class SweepService implements OnModuleDestroy {
  private stopped: Promise<void> | undefined;
  /** The last day this instance saw closed (by itself or another), so that it asks once per day. */
  private closedDay: string | undefined;

  private readonly outage = new DatabaseOutageNotice();

  /** The source accounts' weights in the bank's fair share (`sweep.accountWeights`). */
  private readonly accountWeights: ReadonlyMap<string, number>;

  constructor(
    @Inject(RESOLVED_TRANSFER_OPTIONS) private readonly options: ResolvedTransferOptions,
    @Inject(MovementStore) private readonly store: MovementStore,
    @Inject(MovementSender) private readonly sender: MovementSender,
    @Inject(QuerySchedule) private readonly schedule: QuerySchedule,
    @Inject(InFlightWork) private readonly work: InFlightWork,
    /** This instance's lease owner id. */
    @Inject(LEASE_OWNER) readonly owner: string,
    @Inject(MOVEMENT_LOGGER) private readonly logger: LoggerService,
    @Inject(MovementEvents) private readonly events: MovementEvents,
  ) {
    this.accountWeights = new Map(Object.entries(options.sweep.accountWeights));
  }

  sweep(): Promise<SweepReport> {
    return inSpan('giro sweep', {}, async (span) => {
      const started = performance.now();
      const report = emptySweepReport();
      if (this.stopped === undefined) {
        await this.work.track(this.expireApprovals(report));
        await this.work.track(this.sweepDue(report));
        await this.work.track(this.closeEndedDays(report));
      }
      report.durationMs = Math.round(performance.now() - started);
      span.setAttributes({ 'giro.sweep.claimed': report.claimed, 'giro.sweep.errors': report.errors });
      return report;
    });
  }

  /**
   * Stops claiming, waits for the work in flight (sends included) to finish, then releases this owner's leases. A
   * database that cannot be reached then does not hold the stop up: the leases end on their own (or are taken
   * over once this replica is silent), and every write made under them was fenced.
   */
  stop(): Promise<void> {
    this.stopped ??= (async () => {
      await this.work.idle();
      await this.store.releaseAllLeases(this.owner).catch((error: unknown) => {
        this.logger.warn(`leases not released (they end on their own): ${describeError(error)}`);
      });
    })();
    return this.stopped;
  }

  onModuleDestroy(): Promise<void> {
    return this.stop();
  }

  /**
   * Claims and works the movements due at the sweep's start, and the creations that become due while it runs.
   * While the bank is open, the scheduled transfers whose moment came are released by the claims that take them,
   * so they go out at the pace of the sends, each source account its share (fair-share.ts); outside its hours
   * (`schedule.operatingHours`, judged at each claim) nothing is released and no creation is claimed: only the
   * movements the bank has are followed up, and the sweep wakes at the opening.
   */
  private async sweepDue(report: SweepReport): Promise<void> {
    const { batchSize, concurrency, leaseMs } = this.options.sweep;
    const { clock } = this.options;
    const dueBy = clock.now();
    const hours = this.options.schedule.operatingHours;
    const open = () => hours === undefined || hours.isOpen(clock.now().getTime());
    const pressure = this.schedule.pressure(await this.store.countDue(dueBy), this.options.budget.ratePerSecond);
    const pipeline = new SweepPipeline({
      store: this.store,
      owner: this.owner,
      batchSize,
      concurrency,
      leaseMs,
      dueBy,
      now: () => clock.now(),
      creations: open,
      accountWeights: this.accountWeights,
      claimed: (batch) => this.announceReleases(batch, report),
      stopping: () => this.stopped !== undefined,
      work: (record) => this.followUpOne(record, pressure, report),
      giveBack: (record) => this.sender.giveBackUnrecorded(record),
    });
    report.claimed = await pipeline.workAllDue();
    const nowMs = clock.now().getTime();
    const openNow = hours === undefined || hours.isOpen(nowMs);
    const next = await this.store.wakeUpTimes(openNow);
    const opening = openNow || hours === undefined ? null : hours.nextOpeningAt(nowMs);
    const times = [next.dueMs, next.approvalExpiryMs, openNow ? next.releaseMs : null, opening];
    const earliest = times.reduce<number | null>((a, b) => (a === null || (b !== null && b < a) ? b : a), null);
    report.nextDueAt = earliest === null ? null : new Date(earliest);
  }

  /** Ends REJECTED the transfers whose approval expired, a batch at a time, and announces them. */
  private async expireApprovals(report: SweepReport): Promise<void> {
    const { batchSize } = this.options.sweep;
    for (;;) {
      const batch = await this.store.expireApprovals(batchSize);
      await this.events.publishMany(
        batch.map(({ movement, history }) => ({
          originId: movement.originId,
          announcement: {
            kind: 'changed',
            from: history.from ?? 'AWAITING_APPROVAL',
            to: history.to,
            source: history.source,
          },
        })),
      );
      report.expired += batch.length;
      if (batch.length < batchSize) return;
    }
  }

  /**
   * Announces the scheduled transfers a claim released (their moment came): PENDING, leased to this sweep, which
   * sends them through the bank budget like any new transfer. Read together before the batch is queued, so each
   * one's release is announced before its send's change.
   */
  private async announceReleases(batch: ClaimedMovement[], report: SweepReport): Promise<void> {
    const released = batch.filter((record) => record.released);
    report.released += released.length;
    await this.events.publishMany(released.map(({ originId }) => ({ originId, announcement: RELEASE_ANNOUNCEMENT })));
  }

  /**
   * Announces the close (`report.daily_closed`) of each Buenos Aires day that ended since the last one announced,
   * oldest first, once its end is DAILY_CLOSE_MARGIN_MS behind the clock: transfers stored at the last moment have
   * committed by then. After a stop over several midnights each missed day is announced (up to the last
   * MAX_DAYS_CAUGHT_UP); on a new database, only the last ended day. Once per day across replicas and restarts (the
   * store keeps the days closed); the last day seen is remembered here so that the next sweeps do not ask again.
   */
  private async closeEndedDays(report: SweepReport): Promise<void> {
    const ended = previousBusinessDay(
      businessDayOf(new Date(this.options.clock.now().getTime() - DAILY_CLOSE_MARGIN_MS)),
    );
    if (this.closedDay === ended) return;
    for (const day of daysAfter(await this.store.lastClosedDay(), ended, MAX_DAYS_CAUGHT_UP)) {
      const { start, end } = businessDayBounds(day);
      if (await this.store.closeDay(day, { startMs: start.getTime(), endMs: end.getTime() })) report.closedDay = day;
    }
    this.closedDay = ended;
  }

  /** False when the movement was released without progress (still due). */
  private async followUpOne(record: ClaimedMovement, pressure: number, report: SweepReport): Promise<boolean> {
    const step = emptyFollowUpStep();
    try {
      await this.sender.followUp(record, 'query', pressure, step);
      return !step.leftDue;
    } catch (error) {
      report.errors += 1;
      if (!isDatabaseUnavailable(error)) {
        this.logger.error(movementLogLine(record.originId, `follow-up failed, retried later: ${describeError(error)}`));
        // Given back held when an answer about it may have gone unrecorded (this follow-up called the bank, or it
        // was taken over from a worker that may still be calling), as the outage below keeps its lease: a bare
        // release would let it be asked again sooner than the polling rule allows. Should the hold fail too, the
        // lease ends on its own.
        await this.sender.giveBackUnrecorded(record, step).catch(() => undefined);
        return false;
      }
      // The database out fails every movement's follow-up alike: said once per outage, not once per movement.
      const unsaid = this.outage.failed();
      if (unsaid !== null) {
        const earlier = unsaid > 0 ? ` (${unsaid} more failed in the previous outage)` : '';
        this.logger.warn(
          `follow-ups fail while the database is unavailable, retried later: ${describeError(error)}${earlier}`,
        );
      }
      // The lease is kept until it expires, as by a worker that stopped: the bank may have answered a query whose
      // answer (and its time) could not be recorded, and a lease given back now would let the movement be asked
      // again sooner than the polling rule allows (a connection lost mid-sweep while the pool serves the next
      // one). An expired lease is taken over with the first query put off, as after a crash.
      return false;
    } finally {
      addStep(report, step);
    }
  }
}
