import {
  type MovementAnomalyEvent,
  type MovementFailedEvent,
  type MovementStatusChangedEvent,
  TRANSFER_EVENTS,
} from '@giro/transfer-module';
import { Injectable } from '@nestjs/common';
import { OnEvent } from '@nestjs/event-emitter';
import { InjectPinoLogger, PinoLogger } from 'nestjs-pino';

/** One JSON log line per thing that happens to a movement, each with its `originId` as a field. */
@Injectable()
export class MovementEventsLogger {
  constructor(@InjectPinoLogger('movements') private readonly logger: PinoLogger) {}

  @OnEvent(TRANSFER_EVENTS.statusChanged)
  statusChanged(event: MovementStatusChangedEvent): void {
    this.logger.info(
      { originId: event.originId, from: event.from, to: event.to, source: event.source },
      `movement ${event.from} → ${event.to}`,
    );
  }

  @OnEvent(TRANSFER_EVENTS.failed)
  failed(event: MovementFailedEvent): void {
    const { originId, amount, currencyId, reason } = event.cancellation;
    this.logger.warn(
      { originId, cancellation: { amount, currencyId, reason } },
      'movement FAILED: cancellation to register on the host side',
    );
  }

  @OnEvent(TRANSFER_EVENTS.anomaly)
  anomaly(event: MovementAnomalyEvent): void {
    this.logger.error(
      {
        originId: event.originId,
        status: event.status,
        claimed: event.claimed,
        reason: event.reason,
        source: event.source,
      },
      'bank answer contradicts a final status: recorded, not applied',
    );
  }
}
