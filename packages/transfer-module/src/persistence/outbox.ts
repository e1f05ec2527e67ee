import type { EntityManager } from 'typeorm';
import type { DatabaseEngine } from './engine/database-engine';
import { queryWithCount } from './engine/query-with-count';
import { placeholdersFor } from './engine/raw-rows';
import type { HistoryRecord, MovementDetails } from './movement-records';

// The transactional outbox of webhooks. The store writes a movement's events in the same transaction as the
// change they report, so an event exists exactly when its change does: a crash loses neither, and a rolled back
// change announces nothing. The events' shape is not the store's business: an Outbox (webhooks/) renders them.

/** A change of a movement, as its transaction wrote it. */
export interface MovementChange {
  /** The movement after the change, with its whole history (oldest first) and its cancellation. */
  movement: MovementDetails;
  /** The history rows this change appended, oldest first. */
  appended: HistoryRecord[];
}

/** An event as the outbox stores it. */
export interface OutboxEvent {
  /** Stable for every delivery of the event (`webhook-id`): a receiver deduplicates by it. */
  id: string;
  type: string;
  /** Null for an event about no transfer (a test event). */
  originId: number | null;
  /** The JSON body, exactly as it will be signed and sent. */
  payload: string;
}

/** Given to MovementStore to have events written with the changes. */
export interface Outbox {
  /** The events of `change`, rendered inside its transaction (synchronously: the transaction waits). */
  render(change: MovementChange, atMs: number): OutboxEvent[];
  /** Called once a transaction that wrote events committed (to wake a dispatcher in this process). */
  committed(): void;
}

// Each event gets one delivery per endpoint that is enabled and wants its type (`*`, or `,type,` within the
// comma-wrapped list). An endpoint registered later gets the events written after it.
const MATCHING_ENDPOINT: Record<DatabaseEngine, string> = {
  sqlite: `e."disabled_at_ms" IS NULL AND (e."event_types" = '*' OR instr(e."event_types", ',' || ev."type" || ',') > 0)`,
  postgres: `e."disabled_at_ms" IS NULL AND (e."event_types" = '*' OR strpos(e."event_types", ',' || ev."type" || ',') > 0)`,
};

const DELIVERY_COLUMNS = `"event_seq", "endpoint_id", "origin_id", "state", "attempts", "next_attempt_at_ms", "created_at_ms"`;

/**
 * Writes `events` and their deliveries, due at `nowMs`, in the caller's transaction (`only.endpointId`: one
 * delivery, to that endpoint whatever the types it wants: a test event). Postgres: one statement
 * (the events' INSERT feeds the deliveries' through a CTE); SQLite, which has no DML in a CTE: two.
 */
export async function writeOutboxEvents(
  manager: EntityManager,
  engine: DatabaseEngine,
  events: readonly OutboxEvent[],
  nowMs: number,
  only: { endpointId?: string } = {},
): Promise<void> {
  if (events.length === 0) return;
  const values = events.map(() => '(?, ?, ?, ?, ?)').join(', ');
  const parameters = events.flatMap((event) => [event.id, event.type, event.originId, event.payload, nowMs]);
  const insertEvents = `INSERT INTO "giro_webhook_events" ("id", "type", "origin_id", "payload", "created_at_ms")
    VALUES ${values}`;
  const endpoints = only.endpointId === undefined ? MATCHING_ENDPOINT[engine] : 'e."id" = ?';
  const endpointParameters = only.endpointId === undefined ? [] : [only.endpointId];
  const deliveries = (events: string, where: string) => `INSERT INTO "giro_webhook_deliveries" (${DELIVERY_COLUMNS})
    SELECT ev."seq", e."id", ev."origin_id", 'pending', 0, ?, ? FROM ${events}
    JOIN "giro_webhook_endpoints" e ON ${endpoints} ${where} ORDER BY ev."seq"`;
  if (engine === 'postgres') {
    const sql = `WITH ev AS (${insertEvents} RETURNING "seq", "type", "origin_id") ${deliveries('ev', '')}`;
    await queryWithCount(manager, placeholdersFor(engine, sql), [...parameters, nowMs, nowMs, ...endpointParameters]);
    return;
  }
  const inserted = await queryWithCount(manager, `${insertEvents} RETURNING "seq"`, parameters);
  const seqs = (inserted.records ?? []).map((row: { seq: number }) => row.seq);
  const sql = deliveries('"giro_webhook_events" ev', `WHERE ev."seq" IN (${seqs.map(() => '?').join(', ')})`);
  await queryWithCount(manager, sql, [nowMs, nowMs, ...endpointParameters, ...seqs]);
}
