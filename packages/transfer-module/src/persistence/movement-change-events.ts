import type { EntityManager } from 'typeorm';
import { CancellationEntity, MovementHistoryEntity } from './entities';
import { resolutionsOf } from './movement-anomalies';
import {
  type CancellationRecord,
  type HistoryRecord,
  type MovementRecord,
  toCancellationRecord,
  toHistoryRecord,
} from './movement-records';
import { type Outbox, writeOutboxEvents } from './outbox';
import type { StoreContext } from './store-context';

/**
 * The events of a change that appended history rows, written in its transaction (see outbox.ts): the movement
 * they carry is read back whole (its history, its cancellation, its anomalies' resolutions) inside it.
 */
export async function writeMovementChangeEvents(
  manager: EntityManager,
  context: StoreContext,
  outbox: Outbox,
  change: { movement: MovementRecord; appended: HistoryRecord[]; cancellation: CancellationRecord | null },
  nowMs: number,
): Promise<void> {
  const { originId } = change.movement;
  const history = await manager
    .createQueryBuilder(MovementHistoryEntity, 'h')
    .where('h.originId = :originId', { originId })
    .orderBy('h.id', 'ASC')
    .getMany();
  // A FAILED movement's cancellation was written with the change to FAILED, perhaps by an earlier one.
  let { cancellation } = change;
  if (cancellation === null && change.movement.status === 'FAILED') {
    const entity = await manager.findOneBy(CancellationEntity, { originId });
    cancellation = entity && toCancellationRecord(entity);
  }
  // The event's movement shows its earlier anomalies as they stand (resolved or not).
  const anomalyIds = history.filter((row) => row.source === 'anomaly').map((row) => Number(row.id));
  const resolutions = await resolutionsOf(manager, anomalyIds);
  const movement = Object.assign(change.movement, {
    history: history.map(toHistoryRecord),
    cancellation,
    resolutions,
  });
  await writeOutboxEvents(
    manager,
    context.engine,
    outbox.render({ movement, appended: change.appended }, nowMs),
    nowMs,
  );
}
