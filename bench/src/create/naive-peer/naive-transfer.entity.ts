import { Column, Entity, PrimaryColumn } from 'typeorm';

/** The naive peer's table: the request, its status and the bank's last answer. */
@Entity({ name: 'naive_transfers' })
export class NaiveTransfer {
  @PrimaryColumn({ type: 'integer' })
  originId!: number;

  @Column({ type: 'text' })
  request!: string;

  @Column({ type: 'varchar', length: 16 })
  status!: string;

  @Column({ type: 'text', nullable: true })
  answer!: string | null;
}
