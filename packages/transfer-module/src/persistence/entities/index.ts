import { AnomalyResolutionEntity } from './anomaly-resolution.entity';
import { ApiKeyEntity } from './api-key.entity';
import { AuditEntryEntity } from './audit-entry.entity';
import { CancellationEntity } from './cancellation.entity';
import { ClosedDayEntity } from './closed-day.entity';
import { LimitUsageEntity } from './limit-usage.entity';
import { MovementEntity } from './movement.entity';
import { MovementHistoryEntity } from './movement-history.entity';
import { OriginIdCounterEntity } from './origin-id-counter.entity';
import { ReplicaEntity } from './replica.entity';
import { SubAccountEntity } from './sub-account.entity';
import { WebhookAttemptEntity } from './webhook-attempt.entity';
import { WebhookDeliveryEntity } from './webhook-delivery.entity';
import { WebhookEndpointEntity } from './webhook-endpoint.entity';
import { WebhookEventEntity } from './webhook-event.entity';

export { AnomalyResolutionEntity } from './anomaly-resolution.entity';
export { ApiKeyEntity } from './api-key.entity';
export { AuditEntryEntity } from './audit-entry.entity';
export { CancellationEntity } from './cancellation.entity';
export { ClosedDayEntity } from './closed-day.entity';
export { LimitUsageEntity } from './limit-usage.entity';
export { MovementEntity } from './movement.entity';
export { HISTORY_SOURCES, type HistorySource, MovementHistoryEntity } from './movement-history.entity';
export { OriginIdCounterEntity } from './origin-id-counter.entity';
export { ReplicaEntity } from './replica.entity';
export { SubAccountEntity } from './sub-account.entity';
export { WebhookAttemptEntity } from './webhook-attempt.entity';
export {
  WEBHOOK_DELIVERY_STATES,
  WebhookDeliveryEntity,
  type WebhookDeliveryState,
} from './webhook-delivery.entity';
export { WebhookEndpointEntity } from './webhook-endpoint.entity';
export { WebhookEventEntity } from './webhook-event.entity';

/** Add these to a host's own TypeORM data source (with TRANSFER_MIGRATIONS). */
export const TRANSFER_ENTITIES = [
  MovementEntity,
  MovementHistoryEntity,
  CancellationEntity,
  OriginIdCounterEntity,
  SubAccountEntity,
  WebhookEndpointEntity,
  WebhookEventEntity,
  WebhookDeliveryEntity,
  WebhookAttemptEntity,
  ApiKeyEntity,
  AnomalyResolutionEntity,
  LimitUsageEntity,
  AuditEntryEntity,
  ReplicaEntity,
  ClosedDayEntity,
];
