import { Column, Entity, PrimaryColumn } from 'typeorm';
import { bigintAsNumber } from './column-transformers';

/**
 * A client's virtual sub-account (CVU) that a payment service provider registered to send from (PSP mode,
 * docs/bank-api.md "What the service does"). Disabled, never deleted: the movements sent from it keep naming it.
 */
@Entity({ name: 'giro_sub_accounts' })
export class SubAccountEntity {
  @PrimaryColumn({ name: 'address', type: 'varchar', length: 22, primaryKeyConstraintName: 'PK_giro_sub_accounts' })
  address!: string;

  @Column({ name: 'owner_person_id', type: 'varchar', length: 11 })
  ownerPersonId!: string;

  @Column({ name: 'owner_name', type: 'text', nullable: true })
  ownerName!: string | null;

  @Column({ name: 'created_at_ms', type: 'bigint', transformer: bigintAsNumber })
  createdAtMs!: number;

  @Column({ name: 'disabled_at_ms', type: 'bigint', nullable: true, transformer: bigintAsNumber })
  disabledAtMs!: number | null;
}
