import { Column, Entity, Index, PrimaryGeneratedColumn, Unique } from 'typeorm';
import { bigintAsNumber } from './column-transformers';

/**
 * The outbox: one row per event, written in the same transaction as the change it reports. `seq` orders the
 * events; `id` (`msg_…`) is the stable id a receiver deduplicates by; `payload` is the body as signed and sent.
 */
@Entity({ name: 'giro_webhook_events' })
@Index('IDX_giro_webhook_events_origin_id', ['originId'])
@Unique('UQ_giro_webhook_events_id', ['id'])
export class WebhookEventEntity {
  @PrimaryGeneratedColumn('increment', {
    name: 'seq',
    type: 'bigint',
    primaryKeyConstraintName: 'PK_giro_webhook_events',
  })
  seq!: string | number;

  @Column({ name: 'id', type: 'varchar', length: 40 })
  id!: string;

  @Column({ name: 'type', type: 'varchar', length: 40 })
  type!: string;

  /** Null for an event about no transfer (a test event). */
  @Column({ name: 'origin_id', type: 'bigint', nullable: true, transformer: bigintAsNumber })
  originId!: number | null;

  @Column({ name: 'payload', type: 'text' })
  payload!: string;

  @Column({ name: 'created_at_ms', type: 'bigint', transformer: bigintAsNumber })
  createdAtMs!: number;

  /** The W3C `traceparent` of the change that wrote it, when that change was traced: its deliveries continue it. */
  @Column({ name: 'trace_parent', type: 'varchar', length: 55, nullable: true })
  traceParent!: string | null;
}
