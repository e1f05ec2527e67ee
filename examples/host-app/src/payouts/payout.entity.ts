import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/** requested → in_flight → paid | cancelled. */
export type PayoutStatus = 'requested' | 'in_flight' | 'paid' | 'cancelled';

/** The host application's own record of a payment it owes; giro's movement is linked by originId. */
@Entity({ name: 'payouts' })
export class Payout {
  @PrimaryGeneratedColumn()
  id!: number;

  /** Reserved from giro before anything is sent, so a retry repeats the same request. */
  @Index('IDX_payouts_origin_id', { unique: true })
  @Column({
    name: 'origin_id',
    type: 'bigint',
    transformer: { to: (v: number) => v, from: (v: string | number) => Number(v) },
  })
  originId!: number;

  @Column({ name: 'recipient_cbu', type: 'varchar', length: 22 })
  recipientCbu!: string;

  @Column({ name: 'recipient_cuit', type: 'varchar', length: 11 })
  recipientCuit!: string;

  /** Decimal string, e.g. "1500.00". */
  @Column({ type: 'varchar', length: 32 })
  amount!: string;

  @Column({ type: 'varchar', length: 100 })
  reference!: string;

  @Column({ type: 'varchar', length: 16 })
  status!: PayoutStatus;
}
