import { Column, Entity, Index, JoinColumn, OneToOne, PrimaryColumn } from 'typeorm';
import { bigintAsNumber } from './column-transformers';
import { MovementEntity } from './movement.entity';

/**
 * The registration the host must make when a movement FAILED (docs/bank-api.md#states-and-polling). The originId
 * is the primary key: exactly one cancellation per movement, enforced by the database.
 */
@Entity({ name: 'giro_cancellations' })
@Index('IDX_giro_cancellations_acknowledged_at', ['acknowledgedAtMs'])
@Index('IDX_giro_cancellations_created', ['createdAtMs', 'originId'])
export class CancellationEntity {
  @PrimaryColumn({
    name: 'origin_id',
    type: 'bigint',
    transformer: bigintAsNumber,
    primaryKeyConstraintName: 'PK_giro_cancellations',
  })
  originId!: number;

  @OneToOne(() => MovementEntity, { onDelete: 'RESTRICT', onUpdate: 'NO ACTION', nullable: false })
  @JoinColumn({ name: 'origin_id', foreignKeyConstraintName: 'FK_giro_cancellations_movement' })
  movement?: MovementEntity;

  @Column({ name: 'amount', type: 'varchar', length: 32 })
  amount!: string;

  @Column({ name: 'currency_id', type: 'varchar', length: 3 })
  currencyId!: string;

  @Column({ name: 'reason_code', type: 'text', nullable: true })
  reasonCode!: string | null;

  @Column({ name: 'reason_message', type: 'text', nullable: true })
  reasonMessage!: string | null;

  @Column({ name: 'created_at_ms', type: 'bigint', transformer: bigintAsNumber })
  createdAtMs!: number;

  @Column({ name: 'acknowledged_at_ms', type: 'bigint', nullable: true, transformer: bigintAsNumber })
  acknowledgedAtMs!: number | null;

  /** The host's own registration id, given with the acknowledgement (at most 100 characters); null when none. */
  @Column({ name: 'reference', type: 'varchar', length: 100, nullable: true })
  reference!: string | null;

  /** Who acknowledged it (the admin API's actor: an API key's public id and name); null before, or when unknown. */
  @Column({ name: 'acknowledged_by_key_id', type: 'varchar', length: 64, nullable: true })
  acknowledgedByKeyId!: string | null;

  @Column({ name: 'acknowledged_by_name', type: 'varchar', length: 64, nullable: true })
  acknowledgedByName!: string | null;
}
