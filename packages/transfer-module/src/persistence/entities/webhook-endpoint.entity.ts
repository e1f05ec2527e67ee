import { Column, Entity, PrimaryColumn } from 'typeorm';
import { bigintAsNumber } from './column-transformers';

/**
 * Where webhooks go: a URL, the event types it wants (`*` for all, else `,type,type,`), and the secret that
 * signs them (with the previous one too until its grace period ends, after a rotation). Disabled by an operator
 * or by the receiver (410 Gone); its pending deliveries wait, they resume when it is enabled again.
 */
@Entity({ name: 'giro_webhook_endpoints' })
export class WebhookEndpointEntity {
  @PrimaryColumn({ name: 'id', type: 'varchar', length: 40, primaryKeyConstraintName: 'PK_giro_webhook_endpoints' })
  id!: string;

  @Column({ name: 'url', type: 'text' })
  url!: string;

  @Column({ name: 'description', type: 'text', nullable: true })
  description!: string | null;

  @Column({ name: 'event_types', type: 'text' })
  eventTypes!: string;

  @Column({ name: 'secret', type: 'text' })
  secret!: string;

  @Column({ name: 'previous_secret', type: 'text', nullable: true })
  previousSecret!: string | null;

  @Column({ name: 'previous_secret_expires_at_ms', type: 'bigint', nullable: true, transformer: bigintAsNumber })
  previousSecretExpiresAtMs!: number | null;

  @Column({ name: 'disabled_at_ms', type: 'bigint', nullable: true, transformer: bigintAsNumber })
  disabledAtMs!: number | null;

  @Column({ name: 'disabled_reason', type: 'text', nullable: true })
  disabledReason!: string | null;

  @Column({ name: 'created_at_ms', type: 'bigint', transformer: bigintAsNumber })
  createdAtMs!: number;

  @Column({ name: 'updated_at_ms', type: 'bigint', transformer: bigintAsNumber })
  updatedAtMs!: number;
}
