import { CancellationEntity } from './entities';
import { type CancellationRecord, toCancellationRecord } from './movement-records';
import { CancellationNotFoundError, StoreArgumentError } from './persistence.errors';
import { checkOriginId } from './store-arguments';
import type { StoreContext } from './store-context';

/**
 * MovementStore's cancellations (one per FAILED movement, written by `applyUpdate`): the list the host
 * registers them from, and its acknowledgements.
 */
export class MovementCancellations {
  constructor(private readonly context: StoreContext) {}

  /** Cancellations, oldest first; only unacknowledged (false) or acknowledged (true) ones when asked. */
  async listCancellations(filter: { acknowledged?: boolean } = {}): Promise<CancellationRecord[]> {
    if (filter.acknowledged !== undefined && typeof filter.acknowledged !== 'boolean') {
      throw new StoreArgumentError('acknowledged', 'type', 'must be a boolean');
    }
    return this.context.transactions.read(async (manager) => {
      const query = manager
        .createQueryBuilder(CancellationEntity, 'c')
        .orderBy('c.createdAtMs', 'ASC')
        .addOrderBy('c.originId', 'ASC');
      if (filter.acknowledged === true) query.where('c.acknowledgedAtMs IS NOT NULL');
      if (filter.acknowledged === false) query.where('c.acknowledgedAtMs IS NULL');
      return (await query.getMany()).map(toCancellationRecord);
    });
  }

  /** Marks the cancellation as registered by the host. Idempotent: the first acknowledgement's time stays. */
  async acknowledgeCancellation(originId: number): Promise<CancellationRecord> {
    checkOriginId(originId);
    const now = this.context.nowMs();
    return this.context.transactions.write(async (manager) => {
      await manager
        .createQueryBuilder()
        .update(CancellationEntity)
        .set({ acknowledgedAtMs: now })
        .where('"origin_id" = :originId AND "acknowledged_at_ms" IS NULL', { originId })
        .execute();
      const row = await manager
        .createQueryBuilder(CancellationEntity, 'c')
        .where('c.originId = :originId', { originId })
        .getOne();
      if (!row) throw new CancellationNotFoundError(originId);
      return toCancellationRecord(row);
    });
  }

  async countUnacknowledgedCancellations(): Promise<number> {
    return this.context.transactions.read((manager) =>
      manager.createQueryBuilder(CancellationEntity, 'c').where('c.acknowledgedAtMs IS NULL').getCount(),
    );
  }
}
