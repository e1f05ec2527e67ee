import { CancellationEntity } from './cancellation.entity';
import { MovementEntity } from './movement.entity';
import { MovementHistoryEntity } from './movement-history.entity';
import { OriginIdCounterEntity } from './origin-id-counter.entity';
import { SubAccountEntity } from './sub-account.entity';

export { CancellationEntity } from './cancellation.entity';
export { MovementEntity } from './movement.entity';
export { HISTORY_SOURCES, type HistorySource, MovementHistoryEntity } from './movement-history.entity';
export { OriginIdCounterEntity } from './origin-id-counter.entity';
export { SubAccountEntity } from './sub-account.entity';

/** Add these to a host's own TypeORM data source (with TRANSFER_MIGRATIONS). */
export const TRANSFER_ENTITIES = [
  MovementEntity,
  MovementHistoryEntity,
  CancellationEntity,
  OriginIdCounterEntity,
  SubAccountEntity,
];
