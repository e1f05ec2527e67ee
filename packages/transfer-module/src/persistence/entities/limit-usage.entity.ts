import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * What one source account has used of one day's limits (a calendar day of Buenos Aires, `YYYY-MM-DD`): the
 * amount in integer cents and the number of transfers that count. Written in the transaction of the intent that
 * takes a share (an upsert whose condition is the limit, so replicas never pass it together) and of the change to
 * FAILED that frees it.
 */
@Entity({ name: 'giro_limit_usage' })
export class LimitUsageEntity {
  @PrimaryColumn({ name: 'address', type: 'varchar', length: 22, primaryKeyConstraintName: 'PK_giro_limit_usage' })
  address!: string;

  @PrimaryColumn({ name: 'day', type: 'varchar', length: 10, primaryKeyConstraintName: 'PK_giro_limit_usage' })
  day!: string;

  /** Integer cents: read back as a bigint (a sum of many transfers may pass 2^53). */
  @Column({ name: 'amount_cents', type: 'bigint' })
  amountCents!: string;

  @Column({ name: 'transfers', type: 'integer' })
  transfers!: number;
}
