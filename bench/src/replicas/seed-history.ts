import { Client } from 'pg';
import { type Backlog, backlogConstants, intentTemplate } from '../sweep/backlog';

/**
 * The history of a long-running deployment: `count` movements long final (COMPLETED, no next query, with the
 * bank's ids, so they are in the network-id index as real ones are), each with the three history rows of its life
 * (the intent, the creation's answer, the sweep's final answer). One `INSERT … SELECT generate_series` per
 * table, so ten million take minutes rather than hours. Their originIds come after the backlog's. The seeding
 * session skips the history's triggers (the foreign key check per row and the append-only guard, which a fresh
 * insert never trips): the rows are consistent by construction. The stored last answer is left out (NULL): it
 * would multiply the table's size on disk without touching what the sweep reads through its indexes.
 */
const INSERT_MOVEMENTS = `INSERT INTO giro_movements
  (origin_id, intent, fingerprint, status, amount, currency_id, bank_movement_id, network_id, attempts, queries,
   last_answer_at_ms, next_query_at_ms, version, created_at_ms, updated_at_ms)
  SELECT $1::bigint + n, $2, $3, 'COMPLETED', $4, $5, 'BM' || ($1::bigint + n), 'NET' || ($1::bigint + n), 1, 3,
    $6::bigint - n, NULL, 4, $6::bigint - n - 60000, $6::bigint - n
  FROM generate_series(0, $7::bigint - 1) AS n`;

const INSERT_HISTORY = `INSERT INTO giro_movement_history (origin_id, from_status, to_status, at_ms, source, detail)
  SELECT $1::bigint + n, step.from_status, step.to_status, $2::bigint - n - step.before_ms, step.source, NULL
  FROM generate_series(0, $3::bigint - 1) AS n,
    (VALUES (NULL, 'PENDING', 'intent', 60000), ('PENDING', 'IN_PROGRESS', 'create', 59900),
            ('IN_PROGRESS', 'COMPLETED', 'query', 0)) AS step(from_status, to_status, source, before_ms)`;

/** Adds `count` final movements and their history after `backlog` (seeded first), then refreshes the statistics. */
export async function seedFinalHistory(databaseUrl: string, backlog: Backlog, count: number): Promise<void> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const first = backlog.firstOriginId + backlog.warmup + backlog.count;
    const fixed = backlogConstants(backlog);
    // One intent text for all (its originId the first's): the size of a real one is what matters here.
    const intent = JSON.stringify({ ...intentTemplate(), originId: first });
    // Older than the backlog: these were settled before it was created.
    const settledAtMs = fixed.createdAtMs - 3_600_000;
    await client.query("SET session_replication_role = 'replica'");
    await client.query(INSERT_MOVEMENTS, [
      first,
      intent,
      'history',
      fixed.amount,
      fixed.currencyId,
      settledAtMs,
      count,
    ]);
    await client.query(INSERT_HISTORY, [first, settledAtMs, count]);
    await client.query("SET session_replication_role = 'origin'");
    await client.query('VACUUM ANALYZE giro_movements');
    await client.query('VACUUM ANALYZE giro_movement_history');
  } finally {
    await client.end();
  }
}
