import { Inject, Injectable } from '@nestjs/common';
import { type CancellationView, toCancellationView } from '../movement';
import { MovementStore, type RecordedActor } from '../persistence';
import { asValidation } from './store-argument-errors';
import { checkOriginId } from './stored-movement';

/**
 * The cancellations of FAILED movements (one each, written with the status change), which the host registers on
 * its side and acknowledges.
 */
@Injectable()
export class CancellationService {
  constructor(@Inject(MovementStore) private readonly store: MovementStore) {}

  /** Cancellations of FAILED movements, oldest first, all of them; `acknowledged: false` = still to register. */
  async listCancellations(filter: { acknowledged?: boolean } = {}): Promise<CancellationView[]> {
    const records = await asValidation(() => this.store.listCancellations(filter));
    return records.map(toCancellationView);
  }

  /** `listCancellations` a page at a time (`after` = the previous page's `nextCursor`). */
  async listCancellationPage(
    filter: { acknowledged?: boolean },
    page: { limit: number; after?: string },
  ): Promise<{ items: CancellationView[]; nextCursor: string | null }> {
    const result = await asValidation(() =>
      this.store.listCancellationPage({
        ...(filter.acknowledged !== undefined && { acknowledged: filter.acknowledged }),
        limit: page.limit,
        ...(page.after !== undefined && { after: page.after }),
      }),
    );
    return { items: result.items.map(toCancellationView), nextCursor: result.nextCursor };
  }

  /**
   * The host registered the cancellation on its side: optionally its own registration id (`reference`, at most
   * 100 characters) and who acknowledged (`by`, the admin API's actor). Idempotent: the first acknowledgement
   * stays, with its time, reference and actor. Throws CancellationNotFoundError, TransferValidationError.
   */
  async acknowledgeCancellation(
    originId: number,
    acknowledgement: { reference?: string; by?: RecordedActor } = {},
  ): Promise<CancellationView> {
    checkOriginId(originId);
    return toCancellationView(await asValidation(() => this.store.acknowledgeCancellation(originId, acknowledgement)));
  }
}
