import { Column, Entity, PrimaryColumn } from 'typeorm';
import { bigintAsNumber } from './column-transformers';

/** A live replica of the deployment: its lease owner id and heartbeat (ReplicaRegistry). */
@Entity({ name: 'giro_replicas' })
export class ReplicaEntity {
  /** The replica's lease owner id (host:pid:random). */
  @PrimaryColumn({ name: 'owner', type: 'varchar', length: 200, primaryKeyConstraintName: 'PK_giro_replicas' })
  owner!: string;

  @Column({ name: 'started_at_ms', type: 'bigint', transformer: bigintAsNumber })
  startedAtMs!: number;

  @Column({ name: 'heartbeat_at_ms', type: 'bigint', transformer: bigintAsNumber })
  heartbeatAtMs!: number;

  /** Since when it has beaten without a gap longer than the live window. */
  @Column({ name: 'beating_since_ms', type: 'bigint', transformer: bigintAsNumber })
  beatingSinceMs!: number;

  /** No bank call before then, for any replica: the bank answered this one 429 with Retry-After. */
  @Column({ name: 'bank_paused_until_ms', type: 'bigint', nullable: true, transformer: bigintAsNumber })
  bankPausedUntilMs!: number | null;
}
