import { Check, Column, Entity, PrimaryColumn, Unique } from 'typeorm';
import { ROLES, type Role } from '../../domain';
import { bigintAsNumber } from './column-transformers';

/**
 * An API key of the admin API: its public id, a unique name, a role and sha-256 of the key — never the key.
 * Who minted it, for the approval rule. Revoked, never deleted: what a key did stays attributable to it, and its name is never given to another.
 */
@Entity({ name: 'giro_api_keys' })
@Unique('UQ_giro_api_keys_name', ['name'])
@Check('CHK_giro_api_keys_role', `"role" IN (${ROLES.map((role) => `'${role}'`).join(', ')})`)
export class ApiKeyEntity {
  @PrimaryColumn({ name: 'key_id', type: 'varchar', length: 16, primaryKeyConstraintName: 'PK_giro_api_keys' })
  keyId!: string;

  @Column({ name: 'name', type: 'varchar', length: 64 })
  name!: string;

  @Column({ name: 'role', type: 'varchar', length: 16 })
  role!: Role;

  /** sha-256 of the whole key, hex (domain/api-key.ts). */
  @Column({ name: 'key_hash', type: 'varchar', length: 64 })
  keyHash!: string;

  @Column({ name: 'created_at_ms', type: 'bigint', transformer: bigintAsNumber })
  createdAtMs!: number;

  @Column({ name: 'revoked_at_ms', type: 'bigint', nullable: true, transformer: bigintAsNumber })
  revokedAtMs!: number | null;

  /**
   * The key id of the credential that minted it: another key's, `admin-token` (the bootstrap token), `cli` (the
   * command line); null when unknown (minted before giro recorded it, or by a host's own call without one).
   */
  @Column({ name: 'created_by_key_id', type: 'varchar', length: 64, nullable: true })
  createdByKeyId!: string | null;
}
