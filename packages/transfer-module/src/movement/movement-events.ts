import type { LoggerService } from '@nestjs/common';
import type { MovementStatus } from '../domain';
import type { HistorySource, MovementStore } from '../persistence';
import { DatabaseOutageNotice } from '../persistence/database-outage-notice';
import { isDatabaseUnavailable } from '../persistence/database-unavailable';
import { describeError, movementLogLine } from './movement-logger';
import { type CancellationView, type MovementView, toMovementView } from './movement-view';

/** Event names (@nestjs/event-emitter), emitted after the change is committed. */
export const TRANSFER_EVENTS = {
  statusChanged: 'giro.movement.status_changed',
  completed: 'giro.movement.completed',
  /** Carries the cancellation the host must register. */
  failed: 'giro.movement.failed',
  /** A bank answer contradicted a final status: recorded, not applied. Worth a human look. */
  anomaly: 'giro.movement.anomaly',
} as const;

export interface MovementStatusChangedEvent {
  originId: number;
  from: MovementStatus;
  to: MovementStatus;
  /** What brought the news: `create`, `resend`, `query` (a sweep) or `refresh`. */
  source: HistorySource;
  movement: MovementView;
}

export interface MovementCompletedEvent {
  originId: number;
  movement: MovementView;
}

export interface MovementFailedEvent {
  originId: number;
  movement: MovementView;
  cancellation: CancellationView;
}

export interface MovementAnomalyEvent {
  originId: number;
  /** The final status the movement keeps. */
  status: MovementStatus;
  /** What the bank answered. */
  claimed: MovementStatus;
  reason: string;
  source: HistorySource;
  movement: MovementView;
}

/** What a committed update announces to the host: a status change, or an anomaly (recorded, not applied). */
export type MovementAnnouncement =
  | { kind: 'changed'; from: MovementStatus; to: MovementStatus; source: HistorySource }
  | { kind: 'anomaly'; status: MovementStatus; claimed: MovementStatus; reason: string; source: HistorySource };

/** One committed update's announcement, for `publishMany`. */
export interface OriginIdAnnouncement {
  originId: number;
  announcement: MovementAnnouncement;
}

/** Anything with `emit`, such as EventEmitter2. */
export interface EventSink {
  emit(event: string, payload: unknown): unknown;
}

/**
 * Emits the events of committed updates. Without a sink (the host did not import EventEmitterModule) it does
 * nothing. A listener that throws never undoes or disturbs the work: the failure is logged.
 */
export class MovementEvents {
  private readonly outage = new DatabaseOutageNotice();

  constructor(
    private readonly sink: EventSink | undefined,
    private readonly store: MovementStore,
    private readonly logger: LoggerService,
  ) {}

  async publish(originId: number, announcement: MovementAnnouncement): Promise<void> {
    if (!this.sink) return;
    const details = await this.read(
      () => this.store.findByOriginId(originId),
      (message) => movementLogLine(originId, message),
    );
    if (details) this.announce(originId, announcement, toMovementView(details));
  }

  /**
   * `publish` for many committed updates at once (a claim's released transfers): the movements are read together,
   * a few statements for the lot instead of one read each, and their events emitted in the order given.
   */
  async publishMany(announcements: readonly OriginIdAnnouncement[]): Promise<void> {
    if (!this.sink || announcements.length === 0) return;
    const originIds = announcements.map(({ originId }) => originId);
    const found = await this.read(
      () => this.store.findManyByOriginIds(originIds),
      (message) => `${originIds.length} movements: ${message}`,
    );
    if (!found) return;
    const movementOf = new Map(found.map((details) => [details.originId, details]));
    for (const { originId, announcement } of announcements) {
      const details = movementOf.get(originId);
      if (details) this.announce(originId, announcement, toMovementView(details));
    }
  }

  /** What `reading` read, or undefined when it failed (logged: the events are not emitted, the work stands). */
  private async read<T>(reading: () => Promise<T>, line: (message: string) => unknown): Promise<T | undefined> {
    try {
      return await reading();
    } catch (error) {
      if (!isDatabaseUnavailable(error)) {
        this.logger.error(line(`events not emitted, the movement could not be read: ${describeError(error)}`));
      } else if (this.outage.failed() !== null) {
        // Every update of an outage fails the same way: said once per outage, not once per movement.
        this.logger.warn(`events not emitted while the database is unavailable: ${describeError(error)}`);
      }
      return undefined;
    }
  }

  private announce(originId: number, announcement: MovementAnnouncement, movement: MovementView): void {
    if (announcement.kind === 'anomaly') {
      const { status, claimed, reason, source } = announcement;
      const event: MovementAnomalyEvent = { originId, status, claimed, reason, source, movement };
      this.emit(TRANSFER_EVENTS.anomaly, event);
      return;
    }
    const { from, to, source } = announcement;
    const changed: MovementStatusChangedEvent = { originId, from, to, source, movement };
    this.emit(TRANSFER_EVENTS.statusChanged, changed);
    if (to === 'COMPLETED') {
      const completed: MovementCompletedEvent = { originId, movement };
      this.emit(TRANSFER_EVENTS.completed, completed);
    }
    if (to === 'FAILED' && movement.cancellation) {
      const failed: MovementFailedEvent = { originId, movement, cancellation: movement.cancellation };
      this.emit(TRANSFER_EVENTS.failed, failed);
    }
  }

  private emit(event: string, payload: { originId: number; movement: MovementView }): void {
    try {
      this.sink?.emit(event, payload);
    } catch (error) {
      this.logger.error(movementLogLine(payload.originId, `a listener of ${event} failed: ${describeError(error)}`));
    }
  }
}
