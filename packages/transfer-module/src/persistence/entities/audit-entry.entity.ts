import { Check, Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { bigintAsNumber } from './column-transformers';

/**
 * One row of the audit trail: a request that changed something, or was refused. `seq` is the previous row's plus
 * one (never a sequence: a gap must mean a deleted row); `hash` is sha-256 over the other columns and `prev_hash`,
 * the previous row's `hash` (persistence/audit-hash.ts). Append-only: triggers refuse UPDATE and DELETE.
 * `before` and `after` are JSON text of what changed, never a secret.
 */
@Entity({ name: 'giro_audit' })
@Index('IDX_giro_audit_origin_id', ['originId', 'seq'])
@Index('IDX_giro_audit_actor_key_id', ['actorKeyId', 'seq'])
@Index('IDX_giro_audit_actor_name', ['actorName', 'seq'])
@Index('IDX_giro_audit_at_ms', ['atMs'])
@Check('CHK_giro_audit_outcome', `"outcome" IN ('ok', 'refused')`)
export class AuditEntryEntity {
  @PrimaryColumn({
    name: 'seq',
    type: 'bigint',
    transformer: bigintAsNumber,
    primaryKeyConstraintName: 'PK_giro_audit',
  })
  seq!: number;

  @Column({ name: 'at_ms', type: 'bigint', transformer: bigintAsNumber })
  atMs!: number;

  /** Null for a request that presented no valid credential (refused 401). */
  @Column({ name: 'actor_key_id', type: 'varchar', length: 64, nullable: true })
  actorKeyId!: string | null;

  @Column({ name: 'actor_name', type: 'varchar', length: 64, nullable: true })
  actorName!: string | null;

  @Column({ name: 'actor_role', type: 'varchar', length: 16, nullable: true })
  actorRole!: string | null;

  /** What was asked: `transfer.create`, `cancellation.ack`, `key.revoke`… */
  @Column({ name: 'action', type: 'varchar', length: 64 })
  action!: string;

  @Column({ name: 'origin_id', type: 'bigint', nullable: true, transformer: bigintAsNumber })
  originId!: number | null;

  /** What else the action was about: a key's name, an endpoint's id, an anomaly's id. */
  @Column({ name: 'target', type: 'text', nullable: true })
  target!: string | null;

  @Column({ name: 'before', type: 'text', nullable: true })
  before!: string | null;

  @Column({ name: 'after', type: 'text', nullable: true })
  after!: string | null;

  @Column({ name: 'request_id', type: 'varchar', length: 200 })
  requestId!: string;

  @Column({ name: 'client_address', type: 'varchar', length: 100, nullable: true })
  clientAddress!: string | null;

  @Column({ name: 'outcome', type: 'varchar', length: 8 })
  outcome!: 'ok' | 'refused';

  @Column({ name: 'status_code', type: 'integer', nullable: true })
  statusCode!: number | null;

  @Column({ name: 'error', type: 'text', nullable: true })
  error!: string | null;

  @Column({ name: 'prev_hash', type: 'varchar', length: 64 })
  prevHash!: string;

  @Column({ name: 'hash', type: 'varchar', length: 64 })
  hash!: string;
}
