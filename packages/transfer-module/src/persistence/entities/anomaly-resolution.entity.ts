import { Column, Entity, JoinColumn, OneToOne, PrimaryColumn } from 'typeorm';
import { bigintAsNumber } from './column-transformers';
import { MovementHistoryEntity } from './movement-history.entity';

/**
 * An anomaly closed by an operator: the anomaly is the history row (source `anomaly`) this row names, which stays
 * as it was (the history is append-only). One resolution per anomaly at most (the primary key); who resolved it is
 * the actor of the admin API (an API key's public id and name), never a secret.
 */
@Entity({ name: 'giro_anomaly_resolutions' })
export class AnomalyResolutionEntity {
  @PrimaryColumn({
    name: 'history_id',
    type: 'bigint',
    transformer: bigintAsNumber,
    primaryKeyConstraintName: 'PK_giro_anomaly_resolutions',
  })
  historyId!: number;

  @OneToOne(() => MovementHistoryEntity, { onDelete: 'RESTRICT', onUpdate: 'NO ACTION', nullable: false })
  @JoinColumn({ name: 'history_id', foreignKeyConstraintName: 'FK_giro_anomaly_resolutions_history' })
  anomaly?: MovementHistoryEntity;

  @Column({ name: 'resolved_at_ms', type: 'bigint', transformer: bigintAsNumber })
  resolvedAtMs!: number;

  @Column({ name: 'resolved_by_key_id', type: 'varchar', length: 64 })
  resolvedByKeyId!: string;

  @Column({ name: 'resolved_by_name', type: 'varchar', length: 64 })
  resolvedByName!: string;

  @Column({ name: 'note', type: 'text' })
  note!: string;
}
