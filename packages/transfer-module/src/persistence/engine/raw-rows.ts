import type { EntityMetadata } from 'typeorm';
import type { MovementEntity, MovementHistoryEntity } from '../entities';
import { bigintAsNumber } from '../entities/column-transformers';

// For the statements the store writes itself (fixed text with placeholders, so each is prepared once):
// placeholders in each engine's spelling, and the rows they return read back as entities.

/** The statement with its `?` placeholders numbered, as Postgres wants them: `$1, $2, …`. */
export function numberedPlaceholders(sql: string): string {
  let index = 0;
  // The statements here hold no `?` inside a literal.
  return sql.replace(/\?/g, () => `$${++index}`);
}

// Rows the store's own statements read back (database column names, Postgres bigints as strings) become the
// entities TypeORM would build, through mappers of one fixed shape: the movement and its history are read back
// by every write, and building them column by column through the metadata gives objects of another shape,
// several times slower to build and to read afterwards.

const bigint = bigintAsNumber.from;

/** A raw `giro_movements` row as a MovementEntity (the columns of movement.entity.ts, in its order). */
export function movementFromRow(row: Record<string, unknown>): MovementEntity {
  return {
    originId: bigint(row.origin_id),
    intent: row.intent as string,
    fingerprint: row.fingerprint as string,
    status: row.status as MovementEntity['status'],
    amount: row.amount as string,
    currencyId: row.currency_id as string,
    amountCents: bigint(row.amount_cents ?? null),
    fromAddress: (row.from_address ?? null) as string | null,
    fromPersonId: (row.from_person_id ?? null) as string | null,
    toAddress: (row.to_address ?? null) as string | null,
    toPersonId: (row.to_person_id ?? null) as string | null,
    description: (row.description ?? null) as string | null,
    usageDay: (row.usage_day ?? null) as string | null,
    approvalExpiresAtMs: bigint(row.approval_expires_at_ms ?? null),
    executeAtMs: bigint(row.execute_at_ms ?? null),
    bankMovementId: row.bank_movement_id as string | null,
    networkId: row.network_id as string | null,
    network: row.network as string | null,
    debinId: row.debin_id as string | null,
    postingDatetime: row.posting_datetime as string | null,
    completedDatetime: row.completed_datetime as string | null,
    lastBankAnswer: row.last_bank_answer as string | null,
    attempts: row.attempts as number,
    queries: row.queries as number,
    lastError: row.last_error as string | null,
    lastAnswerAtMs: bigint(row.last_answer_at_ms),
    nextQueryAtMs: bigint(row.next_query_at_ms),
    queriesHeldUntilMs: bigint(row.queries_held_until_ms),
    leaseOwner: row.lease_owner as string | null,
    leaseExpiresAtMs: bigint(row.lease_expires_at_ms),
    version: row.version as number,
    finalAtMs: bigint(row.final_at_ms ?? null),
    createdAtMs: bigint(row.created_at_ms),
    updatedAtMs: bigint(row.updated_at_ms),
  };
}

/**
 * The columns of a history row, as historyFromRow reads them: named in a prepared statement's RETURNING instead of
 * `*`, since a column added later would change its result type, which Postgres refuses to re-plan.
 */
export const HISTORY_COLUMNS = `"id", "origin_id", "from_status", "to_status", "at_ms", "source", "detail", "actor_key_id",
  "actor_name"`;

/**
 * The movement's columns (`"column", …`, or `alias."column", …`), for a prepared statement's RETURNING (see
 * HISTORY_COLUMNS). SQLite's RETURNING takes no alias.
 */
export function movementColumns(metadata: EntityMetadata, alias?: string): string {
  const prefix = alias === undefined ? '' : `${alias}.`;
  return metadata.columns.map((column) => `${prefix}"${column.databaseName}"`).join(', ');
}

/** A raw `giro_movement_history` row as a MovementHistoryEntity. */
export function historyFromRow(row: Record<string, unknown>): MovementHistoryEntity {
  return {
    id: row.id as string | number,
    originId: bigint(row.origin_id),
    fromStatus: row.from_status as MovementHistoryEntity['fromStatus'],
    toStatus: row.to_status as MovementHistoryEntity['toStatus'],
    atMs: bigint(row.at_ms),
    source: row.source as MovementHistoryEntity['source'],
    detail: row.detail as string | null,
    actorKeyId: (row.actor_key_id ?? null) as string | null,
    actorName: (row.actor_name ?? null) as string | null,
  };
}
