import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { bigintAsNumber } from './column-transformers';
import { WebhookEndpointEntity } from './webhook-endpoint.entity';
import { WebhookEventEntity } from './webhook-event.entity';

/** What a delivery is: still to be delivered (retried on its schedule), delivered, or given up. */
export const WEBHOOK_DELIVERY_STATES = ['pending', 'delivered', 'dead'] as const;
export type WebhookDeliveryState = (typeof WEBHOOK_DELIVERY_STATES)[number];

/**
 * One event for one endpoint. A dispatcher leases it (owner and expiry, like a movement) while it sends; the
 * lease of a dispatcher that stopped expires and another sends the same event again, with the same id.
 */
@Entity({ name: 'giro_webhook_deliveries' })
@Check('CHK_giro_webhook_deliveries_state', `"state" IN ('pending', 'delivered', 'dead')`)
@Index('IDX_giro_webhook_deliveries_due', ['nextAttemptAtMs'], { where: `"state" = 'pending'` })
@Index('IDX_giro_webhook_deliveries_order', ['endpointId', 'originId', 'eventSeq'], { where: `"state" = 'pending'` })
@Index('IDX_giro_webhook_deliveries_dead', ['endpointId', 'id'], { where: `"state" = 'dead'` })
@Index('IDX_giro_webhook_deliveries_endpoint', ['endpointId', 'id'])
@Index('IDX_giro_webhook_deliveries_event', ['eventSeq'])
export class WebhookDeliveryEntity {
  @PrimaryGeneratedColumn('increment', {
    name: 'id',
    type: 'bigint',
    primaryKeyConstraintName: 'PK_giro_webhook_deliveries',
  })
  id!: string | number;

  @Column({ name: 'event_seq', type: 'bigint', transformer: bigintAsNumber })
  eventSeq!: number;

  @ManyToOne(() => WebhookEventEntity, { onDelete: 'CASCADE', onUpdate: 'NO ACTION', nullable: false })
  @JoinColumn({
    name: 'event_seq',
    referencedColumnName: 'seq',
    foreignKeyConstraintName: 'FK_giro_webhook_deliveries_event',
  })
  event?: WebhookEventEntity;

  @Column({ name: 'endpoint_id', type: 'varchar', length: 40 })
  endpointId!: string;

  @ManyToOne(() => WebhookEndpointEntity, { onDelete: 'CASCADE', onUpdate: 'NO ACTION', nullable: false })
  @JoinColumn({ name: 'endpoint_id', foreignKeyConstraintName: 'FK_giro_webhook_deliveries_endpoint' })
  endpoint?: WebhookEndpointEntity;

  /** The event's transfer (deliveries of one transfer to one endpoint go in order); null for a test event. */
  @Column({ name: 'origin_id', type: 'bigint', nullable: true, transformer: bigintAsNumber })
  originId!: number | null;

  @Column({ name: 'state', type: 'varchar', length: 12 })
  state!: WebhookDeliveryState;

  @Column({ name: 'attempts', type: 'integer', default: 0 })
  attempts!: number;

  @Column({ name: 'next_attempt_at_ms', type: 'bigint', transformer: bigintAsNumber })
  nextAttemptAtMs!: number;

  @Column({ name: 'lease_owner', type: 'varchar', length: 200, nullable: true })
  leaseOwner!: string | null;

  @Column({ name: 'lease_expires_at_ms', type: 'bigint', nullable: true, transformer: bigintAsNumber })
  leaseExpiresAtMs!: number | null;

  @Column({ name: 'last_attempt_at_ms', type: 'bigint', nullable: true, transformer: bigintAsNumber })
  lastAttemptAtMs!: number | null;

  @Column({ name: 'last_status_code', type: 'integer', nullable: true })
  lastStatusCode!: number | null;

  @Column({ name: 'last_error', type: 'text', nullable: true })
  lastError!: string | null;

  @Column({ name: 'delivered_at_ms', type: 'bigint', nullable: true, transformer: bigintAsNumber })
  deliveredAtMs!: number | null;

  @Column({ name: 'created_at_ms', type: 'bigint', transformer: bigintAsNumber })
  createdAtMs!: number;
}
