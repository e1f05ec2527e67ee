import {
  CancellationService,
  type MovementCompletedEvent,
  type MovementFailedEvent,
  TRANSFER_EVENTS,
} from '@giro/transfer-module';
import { Injectable } from '@nestjs/common';
import { OnEvent } from '@nestjs/event-emitter';
import { PayoutsService } from './payouts.service';

/**
 * giro tells when a transfer is final. A FAILED one means the money never left: the payout is cancelled on
 * this side, and giro is told the cancellation is registered. (A process that died before hearing an event
 * finds the rest with `listCancellations({ acknowledged: false })` at start.)
 */
@Injectable()
export class PayoutEventsListener {
  constructor(
    private readonly payouts: PayoutsService,
    private readonly cancellations: CancellationService,
  ) {}

  @OnEvent(TRANSFER_EVENTS.completed, { async: true, promisify: true })
  async onCompleted(event: MovementCompletedEvent): Promise<void> {
    await this.payouts.markFrom(event.originId, 'COMPLETED');
  }

  @OnEvent(TRANSFER_EVENTS.failed, { async: true, promisify: true })
  async onFailed(event: MovementFailedEvent): Promise<void> {
    await this.payouts.markFrom(event.originId, 'FAILED');
    await this.cancellations.acknowledgeCancellation(event.originId);
  }
}
