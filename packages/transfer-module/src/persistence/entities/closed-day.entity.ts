import { Column, Entity, PrimaryColumn } from 'typeorm';
import { bigintAsNumber } from './column-transformers';

/**
 * A Buenos Aires day whose close was announced (`report.daily_closed`): written in the transaction that writes
 * the event, and its key unique, so that a day is announced once whatever the replicas and restarts.
 */
@Entity({ name: 'giro_closed_days' })
export class ClosedDayEntity {
  /** The day, `YYYY-MM-DD`. */
  @PrimaryColumn({ name: 'day', type: 'varchar', length: 10, primaryKeyConstraintName: 'PK_giro_closed_days' })
  day!: string;

  @Column({ name: 'closed_at_ms', type: 'bigint', transformer: bigintAsNumber })
  closedAtMs!: number;
}
