import type { EntityManager } from 'typeorm';
import { WebhookAttemptEntity } from '../entities';
import type { DeliveryConnection } from './engine-adapter';
import { queryWithCount } from './query-with-count';
import { numberedPlaceholders } from './raw-rows';
import type { Transactions } from './transactions';

/** What one attempt of a leased delivery came to, and what becomes of the delivery. */
export interface DeliveryResult {
  deliveryId: number;
  /** `delivered`; `retry` at `nextAttemptAtMs`; `dead`: no try left. */
  outcome: 'delivered' | 'retry' | 'dead';
  nextAttemptAtMs?: number;
  attempt: {
    atMs: number;
    durationMs: number;
    statusCode: number | null;
    error: string | null;
    response: string | null;
  };
}

// A batch of results is one UPDATE, its values joined in as a table (`v`), each row fenced on the owner's lease.

const RESULT_COLUMNS =
  '"delivery_id", "state", "next_ms", "at_ms", "status_code", "error", "delivered_ms", "duration_ms", "response"';
const RESULT_ROW = `(CAST(? AS bigint), CAST(? AS varchar(12)), CAST(? AS bigint), CAST(? AS bigint), CAST(? AS integer),
  CAST(? AS text), CAST(? AS bigint), CAST(? AS integer), CAST(? AS text))`;
const RESULTS_UPDATE = `UPDATE "giro_webhook_deliveries" SET "state" = v."state", "attempts" = "attempts" + 1,
  "next_attempt_at_ms" = COALESCE(v."next_ms", "next_attempt_at_ms"), "last_attempt_at_ms" = v."at_ms",
  "last_status_code" = v."status_code", "last_error" = v."error", "delivered_at_ms" = v."delivered_ms",
  "lease_owner" = NULL, "lease_expires_at_ms" = NULL
  FROM v WHERE "id" = v."delivery_id" AND "lease_owner" = ? RETURNING "id"`;

function resultValues(results: readonly DeliveryResult[]): { sql: string; parameters: unknown[] } {
  return {
    sql: `WITH v (${RESULT_COLUMNS}) AS (VALUES ${results.map(() => RESULT_ROW).join(', ')})`,
    parameters: results.flatMap(({ deliveryId, outcome, nextAttemptAtMs, attempt }) => [
      deliveryId,
      outcome === 'retry' ? 'pending' : outcome,
      outcome === 'retry' ? (nextAttemptAtMs ?? attempt.atMs) : null,
      attempt.atMs,
      attempt.statusCode,
      attempt.error,
      outcome === 'delivered' ? attempt.atMs + attempt.durationMs : null,
      attempt.durationMs,
      attempt.response,
    ]),
  };
}

/**
 * SQLite, which has no DML in a CTE: one transaction, an UPDATE per batch, then one insert of the attempts
 * recorded; the ids recorded.
 */
export function recordSqliteDeliveryResults(
  transactions: Transactions,
  owner: string,
  batches: readonly (readonly DeliveryResult[])[],
): Promise<number[]> {
  return transactions.write(async (manager) => {
    const recorded: number[] = [];
    for (const batch of batches) recorded.push(...(await updateDeliveries(manager, owner, batch)));
    const kept = new Set(recorded);
    const attempts = batches.flat().filter((result) => kept.has(result.deliveryId));
    if (attempts.length > 0) {
      await manager
        .createQueryBuilder()
        .insert()
        .into(WebhookAttemptEntity)
        .values(attempts.map(({ deliveryId, attempt }) => ({ deliveryId, ...attempt })))
        .updateEntity(false)
        .execute();
    }
    return recorded;
  });
}

/** SQLite: one UPDATE for a batch of results; the ids it changed. */
async function updateDeliveries(
  manager: EntityManager,
  owner: string,
  results: readonly DeliveryResult[],
): Promise<number[]> {
  const values = resultValues(results);
  const sql = `${values.sql} ${RESULTS_UPDATE}`;
  const updated = await queryWithCount(manager, sql, [...values.parameters, owner]);
  return (updated.records ?? []).map((row: { id: string | number }) => Number(row.id));
}

/**
 * Postgres: one statement per batch, without BEGIN and COMMIT: the update and its attempts' insert in one. On
 * `connection` (a dispatcher's own) when given, else on the pool.
 */
export function recordPostgresDeliveryResults(
  transactions: Transactions,
  owner: string,
  batches: readonly (readonly DeliveryResult[])[],
  connection?: DeliveryConnection,
): Promise<number[]> {
  const recordAll = async (run: DeliveryConnection['run']) => {
    const recorded: number[] = [];
    for (const batch of batches) recorded.push(...(await recordBatch(run, owner, batch)));
    return recorded;
  };
  if (connection) return recordAll((sql, parameters) => connection.run(sql, parameters));
  return transactions.writeStatement((manager) =>
    recordAll(async (sql, parameters) => (await queryWithCount(manager, sql, parameters)).records ?? []),
  );
}

/** Postgres: the update and the insert of the attempts it recorded, in one statement; the ids recorded. */
async function recordBatch(
  run: DeliveryConnection['run'],
  owner: string,
  results: readonly DeliveryResult[],
): Promise<number[]> {
  const values = resultValues(results);
  const sql = `${values.sql}, u AS (${RESULTS_UPDATE})
    INSERT INTO "giro_webhook_attempts" ("delivery_id", "at_ms", "duration_ms", "status_code", "error", "response")
    SELECT v."delivery_id", v."at_ms", v."duration_ms", v."status_code", v."error", v."response"
    FROM v JOIN u ON u."id" = v."delivery_id" RETURNING "delivery_id"`;
  const inserted = await run(numberedPlaceholders(sql), [...values.parameters, owner]);
  return inserted.map((row) => Number(row.delivery_id));
}
