import type { SelectQueryBuilder } from 'typeorm';
import { CancellationEntity } from './entities';
import { type CancellationRecord, toCancellationRecord } from './movement-records';
import { CancellationNotFoundError, StoreArgumentError } from './persistence.errors';
import {
  checkActor,
  checkInteger,
  checkOriginId,
  checkText,
  MAX_BATCH_SIZE,
  MAX_REFERENCE_LENGTH,
} from './store-arguments';
import type { StoreContext } from './store-context';
import type { CancellationAcknowledgement, ListCancellationsOptions, MovementPage } from './store-types';

/** `<createdAtMs>.<originId>`: the last cancellation of the previous page (the list is by creation, then originId). */
const CURSOR = /^(0|[1-9][0-9]{0,15})\.([1-9][0-9]{0,15})$/;

/**
 * MovementStore's cancellations (one per FAILED movement, written by `applyUpdate`): the list the host
 * registers them from, and its acknowledgements.
 */
export class MovementCancellations {
  constructor(private readonly context: StoreContext) {}

  /** Cancellations, oldest first; only unacknowledged (false) or acknowledged (true) ones when asked. All of them. */
  async listCancellations(filter: { acknowledged?: boolean } = {}): Promise<CancellationRecord[]> {
    checkAcknowledged(filter.acknowledged);
    return this.context.transactions.read(async (manager) => {
      const query = ordered(manager.createQueryBuilder(CancellationEntity, 'c'), filter.acknowledged);
      return (await query.getMany()).map(toCancellationRecord);
    });
  }

  /** `listCancellations` a page at a time (`after` = the previous page's `nextCursor`), by an index. */
  async listCancellationPage(options: ListCancellationsOptions): Promise<MovementPage<CancellationRecord>> {
    checkAcknowledged(options.acknowledged);
    const limit = checkInteger(options.limit, 'limit', 1, MAX_BATCH_SIZE);
    const after = options.after === undefined ? undefined : parseCursor(options.after);
    return this.context.transactions.read(async (manager) => {
      const query = ordered(manager.createQueryBuilder(CancellationEntity, 'c'), options.acknowledged).limit(limit + 1);
      if (after !== undefined) {
        query.andWhere('(c.createdAtMs > :afterAt OR (c.createdAtMs = :afterAt AND c.originId > :afterOriginId))', {
          afterAt: after.createdAtMs,
          afterOriginId: after.originId,
        });
      }
      const rows = await query.getMany();
      const kept = rows.slice(0, limit);
      const last = kept[kept.length - 1];
      const nextCursor = rows.length > limit ? `${last.createdAtMs}.${last.originId}` : null;
      return { items: kept.map(toCancellationRecord), nextCursor };
    });
  }

  /**
   * Marks the cancellation as registered by the host, with the host's registration id (`reference`) and who
   * acknowledged it when given. Idempotent: the first acknowledgement stays — its time, reference and actor.
   */
  async acknowledgeCancellation(
    originId: number,
    acknowledgement: CancellationAcknowledgement = {},
  ): Promise<CancellationRecord> {
    checkOriginId(originId);
    const reference =
      acknowledgement.reference === undefined
        ? null
        : checkText(acknowledgement.reference, 'reference', MAX_REFERENCE_LENGTH, { lineBreaks: false });
    const by = acknowledgement.by === undefined ? null : checkActor(acknowledgement.by, 'by');
    const now = this.context.nowMs();
    return this.context.transactions.write(async (manager) => {
      const update = await manager
        .createQueryBuilder()
        .update(CancellationEntity)
        .set({
          acknowledgedAtMs: now,
          reference,
          acknowledgedByKeyId: by?.keyId ?? null,
          acknowledgedByName: by?.name ?? null,
        })
        .where('"origin_id" = :originId AND "acknowledged_at_ms" IS NULL', { originId })
        .execute();
      const row = await manager
        .createQueryBuilder(CancellationEntity, 'c')
        .where('c.originId = :originId', { originId })
        .getOne();
      if (!row) throw new CancellationNotFoundError(originId);
      const record = toCancellationRecord(row);
      // A repeated acknowledgement changes nothing: no change to audit (the caller's own row says it was asked).
      if (update.affected) {
        await this.context.audit?.recordChange(manager, {
          originId,
          before: { acknowledgedAt: null, reference: null, acknowledgedBy: null },
          after: {
            acknowledgedAt: record.acknowledgedAt,
            reference: record.reference,
            acknowledgedBy: record.acknowledgedBy,
          },
        });
      }
      return record;
    });
  }

  async countUnacknowledgedCancellations(): Promise<number> {
    return this.context.transactions.read((manager) =>
      manager.createQueryBuilder(CancellationEntity, 'c').where('c.acknowledgedAtMs IS NULL').getCount(),
    );
  }
}

/** Oldest first (then by originId), only the acknowledged or unacknowledged ones when asked. */
function ordered(
  query: SelectQueryBuilder<CancellationEntity>,
  acknowledged: boolean | undefined,
): SelectQueryBuilder<CancellationEntity> {
  query.orderBy('c.createdAtMs', 'ASC').addOrderBy('c.originId', 'ASC');
  if (acknowledged === true) query.where('c.acknowledgedAtMs IS NOT NULL');
  if (acknowledged === false) query.where('c.acknowledgedAtMs IS NULL');
  return query;
}

function checkAcknowledged(acknowledged: unknown): void {
  if (acknowledged !== undefined && typeof acknowledged !== 'boolean') {
    throw new StoreArgumentError('acknowledged', 'type', 'must be a boolean');
  }
}

function parseCursor(after: unknown): { createdAtMs: number; originId: number } {
  const match = typeof after === 'string' ? CURSOR.exec(after) : null;
  if (!match || !Number.isSafeInteger(Number(match[1])) || !Number.isSafeInteger(Number(match[2]))) {
    throw new StoreArgumentError('after', 'cursor', 'must be the nextCursor of a previous page');
  }
  return { createdAtMs: Number(match[1]), originId: Number(match[2]) };
}
