import { Column, Entity, PrimaryColumn } from 'typeorm';
import { bigintAsNumber } from './column-transformers';

/** The persisted part of the originId allocator: the next value it may hand out (see origin-id-allocator.ts). */
@Entity({ name: 'giro_origin_id_counter' })
export class OriginIdCounterEntity {
  @PrimaryColumn({ name: 'name', type: 'varchar', length: 32, primaryKeyConstraintName: 'PK_giro_origin_id_counter' })
  name!: string;

  @Column({ name: 'next_value', type: 'bigint', transformer: bigintAsNumber })
  nextValue!: number;
}
