import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { bigintAsNumber } from './column-transformers';
import { WebhookDeliveryEntity } from './webhook-delivery.entity';

/** One try of a delivery: when, how long, and what the receiver answered (or why there was no answer). */
@Entity({ name: 'giro_webhook_attempts' })
@Index('IDX_giro_webhook_attempts_delivery', ['deliveryId'])
export class WebhookAttemptEntity {
  @PrimaryGeneratedColumn('increment', {
    name: 'id',
    type: 'bigint',
    primaryKeyConstraintName: 'PK_giro_webhook_attempts',
  })
  id!: string | number;

  @Column({ name: 'delivery_id', type: 'bigint', transformer: bigintAsNumber })
  deliveryId!: number;

  @ManyToOne(() => WebhookDeliveryEntity, { onDelete: 'CASCADE', onUpdate: 'NO ACTION', nullable: false })
  @JoinColumn({ name: 'delivery_id', foreignKeyConstraintName: 'FK_giro_webhook_attempts_delivery' })
  delivery?: WebhookDeliveryEntity;

  @Column({ name: 'at_ms', type: 'bigint', transformer: bigintAsNumber })
  atMs!: number;

  @Column({ name: 'duration_ms', type: 'integer' })
  durationMs!: number;

  /** The receiver's HTTP status; null when none came (refused, timed out, reset). */
  @Column({ name: 'status_code', type: 'integer', nullable: true })
  statusCode!: number | null;

  @Column({ name: 'error', type: 'text', nullable: true })
  error!: string | null;

  /** The start of the receiver's answer (at most 1 KiB), for an operator. */
  @Column({ name: 'response', type: 'text', nullable: true })
  response!: string | null;
}
