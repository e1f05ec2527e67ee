import { Check, Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { MOVEMENT_STATUSES, type MovementStatus } from '../../domain';
import { bigintAsNumber } from './column-transformers';

/**
 * One transfer intent and everything known about it. The originId is the primary key: one intent ↔ one
 * originId, forever. Times are epoch milliseconds (UTC) in bigint columns: they compare as integers,
 * identically on SQLite and Postgres, with no time zone to get wrong, and come from the injected Clock.
 */
@Entity({ name: 'giro_movements' })
@Check('CHK_giro_movements_status', `"status" IN (${MOVEMENT_STATUSES.map((status) => `'${status}'`).join(', ')})`)
@Index('IDX_giro_movements_pending_due', ['nextQueryAtMs'], { where: `"status" = 'PENDING'` })
@Index('IDX_giro_movements_awaiting_approval', ['approvalExpiresAtMs'], { where: `"status" = 'AWAITING_APPROVAL'` })
@Index('IDX_giro_movements_scheduled', ['executeAtMs'], { where: `"status" = 'SCHEDULED'` })
// Each source account's queue of creations and of scheduled transfers (persistence/engine/fair-share.ts).
@Index('IDX_giro_movements_pending_account', ['fromAddress', 'nextQueryAtMs'], { where: `"status" = 'PENDING'` })
@Index('IDX_giro_movements_scheduled_account', ['fromAddress', 'executeAtMs'], { where: `"status" = 'SCHEDULED'` })
@Index('IDX_giro_movements_next_query_at', ['nextQueryAtMs'])
@Index('IDX_giro_movements_debin_id', ['debinId'], { where: '"debin_id" IS NOT NULL' })
@Index('IDX_giro_movements_network_id', ['networkId'], { where: '"network_id" IS NOT NULL' })
// The operators' search (search/): newest first, alone or within one value of a filter. The creation time's index
// ends with the amount and the description, the status's with the amount: a text or a status within an amount
// range is checked from the index.
@Index('IDX_giro_movements_created', ['createdAtMs', 'originId', 'amountCents', 'description'])
@Index('IDX_giro_movements_status_created', ['status', 'createdAtMs', 'originId', 'amountCents'])
@Index('IDX_giro_movements_from_address', ['fromAddress', 'createdAtMs', 'originId'])
@Index('IDX_giro_movements_to_address', ['toAddress', 'createdAtMs', 'originId'])
@Index('IDX_giro_movements_from_person', ['fromPersonId', 'createdAtMs', 'originId'])
@Index('IDX_giro_movements_to_person', ['toPersonId', 'createdAtMs', 'originId'])
// A status within a narrow amount range, answered from the keys; and an amount or a range alone, one status at a time.
@Index('IDX_giro_movements_status_amount', ['status', 'amountCents', 'createdAtMs', 'originId'])
// The daily close: the day's final movements, by account and status, with their amounts, read from the index.
@Index('IDX_giro_movements_final', ['finalAtMs', 'fromAddress', 'status', 'amountCents'], {
  where: '"final_at_ms" IS NOT NULL',
})
export class MovementEntity {
  @PrimaryColumn({
    name: 'origin_id',
    type: 'bigint',
    transformer: bigintAsNumber,
    primaryKeyConstraintName: 'PK_giro_movements',
  })
  originId!: number;

  /** The TransferIntent as JSON text, exactly as it was recorded. */
  @Column({ name: 'intent', type: 'text' })
  intent!: string;

  /** sha-256 hex of the intent's canonical form: same payload ↔ same fingerprint. */
  @Column({ name: 'fingerprint', type: 'varchar', length: 64 })
  fingerprint!: string;

  @Column({ name: 'status', type: 'varchar', length: 20 })
  status!: MovementStatus;

  /** Canonical decimal string ("1234.50"), never a float. */
  @Column({ name: 'amount', type: 'varchar', length: 32 })
  amount!: string;

  @Column({ name: 'currency_id', type: 'varchar', length: 3 })
  currencyId!: string;

  // Copies of the intent's fields an operator searches by, so that an index can serve each search. Written
  // with the intent and never changed; null only on a row stored before MovementSearch1796673600000 filled them.

  /** The amount in cents (`amount` without its point), for ranges of amounts. */
  @Column({ name: 'amount_cents', type: 'bigint', nullable: true, transformer: bigintAsNumber })
  amountCents!: number | null;

  @Column({ name: 'from_address', type: 'varchar', length: 22, nullable: true })
  fromAddress!: string | null;

  @Column({ name: 'from_person_id', type: 'varchar', length: 11, nullable: true })
  fromPersonId!: string | null;

  @Column({ name: 'to_address', type: 'varchar', length: 22, nullable: true })
  toAddress!: string | null;

  @Column({ name: 'to_person_id', type: 'varchar', length: 11, nullable: true })
  toPersonId!: string | null;

  @Column({ name: 'description', type: 'text', nullable: true })
  description!: string | null;

  /**
   * The day (Buenos Aires, `YYYY-MM-DD`) whose limit usage of its source account counts this movement: set at
   * insert when a daily limit applied, so that FAILED frees exactly the share it took; null when none was taken.
   */
  @Column({ name: 'usage_day', type: 'varchar', length: 10, nullable: true })
  usageDay!: string | null;

  /** While AWAITING_APPROVAL: when it ends REJECTED if no one approved it; null in every other status. */
  @Column({ name: 'approval_expires_at_ms', type: 'bigint', nullable: true, transformer: bigintAsNumber })
  approvalExpiresAtMs!: number | null;

  /**
   * The moment a scheduled transfer is released to the bank (its `executeOn` or `executeAt` resolved); kept
   * after the release, so the view still says when it was to go. Null for a transfer sent at once.
   */
  @Column({ name: 'execute_at_ms', type: 'bigint', nullable: true, transformer: bigintAsNumber })
  executeAtMs!: number | null;

  // What the bank said about the movement. Text without length limits: a long value in an answer must
  // never make the write fail.
  @Column({ name: 'bank_movement_id', type: 'text', nullable: true })
  bankMovementId!: string | null;

  @Column({ name: 'network_id', type: 'text', nullable: true })
  networkId!: string | null;

  @Column({ name: 'network', type: 'text', nullable: true })
  network!: string | null;

  /**
   * The DEBIN id the bank knows the movement by, learned from a lookup by that id whose answer named this
   * movement (the bank's movement does not carry it): a later lookup by it is then known to be about this one.
   */
  @Column({ name: 'debin_id', type: 'text', nullable: true })
  debinId!: string | null;

  /** As the bank sent it (ISO 8601 UTC); informational, never compared. */
  @Column({ name: 'posting_datetime', type: 'text', nullable: true })
  postingDatetime!: string | null;

  @Column({ name: 'completed_datetime', type: 'text', nullable: true })
  completedDatetime!: string | null;

  /** The last answer of the bank, as JSON text. */
  @Column({ name: 'last_bank_answer', type: 'text', nullable: true })
  lastBankAnswer!: string | null;

  /** Sends of the creation request that may have reached the bank (counted before sending). */
  @Column({ name: 'attempts', type: 'integer', default: 0 })
  attempts!: number;

  /** get-movement queries made about it. */
  @Column({ name: 'queries', type: 'integer', default: 0 })
  queries!: number;

  @Column({ name: 'last_error', type: 'text', nullable: true })
  lastError!: string | null;

  @Column({ name: 'last_answer_at_ms', type: 'bigint', nullable: true, transformer: bigintAsNumber })
  lastAnswerAtMs!: number | null;

  /** When a sweep should next look at it; null once final. */
  @Column({ name: 'next_query_at_ms', type: 'bigint', nullable: true, transformer: bigintAsNumber })
  nextQueryAtMs!: number | null;

  /** No query, by a sweep or on demand, before then, whatever the polling rule allows; null when none. */
  @Column({ name: 'queries_held_until_ms', type: 'bigint', nullable: true, transformer: bigintAsNumber })
  queriesHeldUntilMs!: number | null;

  @Column({ name: 'lease_owner', type: 'varchar', length: 200, nullable: true })
  leaseOwner!: string | null;

  @Column({ name: 'lease_expires_at_ms', type: 'bigint', nullable: true, transformer: bigintAsNumber })
  leaseExpiresAtMs!: number | null;

  /** Incremented by every write. */
  @Column({ name: 'version', type: 'integer', default: 1 })
  version!: number;

  /** When it became final (COMPLETED, FAILED, REJECTED, CANCELED), as its history says; null before. */
  @Column({ name: 'final_at_ms', type: 'bigint', nullable: true, transformer: bigintAsNumber })
  finalAtMs!: number | null;

  @Column({ name: 'created_at_ms', type: 'bigint', transformer: bigintAsNumber })
  createdAtMs!: number;

  @Column({ name: 'updated_at_ms', type: 'bigint', transformer: bigintAsNumber })
  updatedAtMs!: number;
}
