import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import type { MovementStatus } from '../../domain';
import { bigintAsNumber } from './column-transformers';
import { MovementEntity } from './movement.entity';

/** Where a history row came from. */
export const HISTORY_SOURCES = [
  'intent',
  'create',
  'resend',
  'query',
  'refresh',
  'anomaly',
  'approval',
  'rejection',
  'expiry',
  'release',
  'cancel',
] as const;
/**
 * `intent`: recorded before the first send; `create` / `resend`: the answer to a creation request;
 * `query`: a sweep's get-movement; `refresh`: a manual get-movement; `anomaly`: an answer contradicting a
 * final status (recorded, never applied: `to` is what the bank claimed, the movement keeps `from`);
 * `approval` / `rejection`: an approver's decision about a transfer AWAITING_APPROVAL; `expiry`: no one decided
 * in time; `release`: a SCHEDULED transfer's moment came (it is PENDING, due); `cancel`: a SCHEDULED one was
 * called off (CANCELED).
 */
export type HistorySource = (typeof HISTORY_SOURCES)[number];

/** Append-only: the database refuses updates and deletes of these rows (triggers in the migration). */
@Entity({ name: 'giro_movement_history' })
@Index('IDX_giro_movement_history_origin_id', ['originId'])
@Index('IDX_giro_movement_history_anomalies_at', ['atMs', 'id'], { where: `"source" = 'anomaly'` })
export class MovementHistoryEntity {
  @PrimaryGeneratedColumn('increment', {
    name: 'id',
    type: 'bigint',
    primaryKeyConstraintName: 'PK_giro_movement_history',
  })
  id!: string | number;

  @Column({ name: 'origin_id', type: 'bigint', transformer: bigintAsNumber })
  originId!: number;

  @ManyToOne(() => MovementEntity, { onDelete: 'RESTRICT', onUpdate: 'NO ACTION', nullable: false })
  @JoinColumn({ name: 'origin_id', foreignKeyConstraintName: 'FK_giro_movement_history_movement' })
  movement?: MovementEntity;

  /** Null for the first row (the intent). */
  @Column({ name: 'from_status', type: 'varchar', length: 20, nullable: true })
  fromStatus!: MovementStatus | null;

  @Column({ name: 'to_status', type: 'varchar', length: 20 })
  toStatus!: MovementStatus;

  @Column({ name: 'at_ms', type: 'bigint', transformer: bigintAsNumber })
  atMs!: number;

  @Column({ name: 'source', type: 'varchar', length: 16 })
  source!: HistorySource;

  /** JSON text: error codes, the bank's answer, the anomaly's reason… */
  @Column({ name: 'detail', type: 'text', nullable: true })
  detail!: string | null;

  /** Who made the change (an API key's public id and name): the intent's creator, an approver; null for giro's own work. */
  @Column({ name: 'actor_key_id', type: 'varchar', length: 64, nullable: true })
  actorKeyId!: string | null;

  @Column({ name: 'actor_name', type: 'varchar', length: 64, nullable: true })
  actorName!: string | null;
}
