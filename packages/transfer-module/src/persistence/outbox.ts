import type { EntityManager } from 'typeorm';
import type { AccountCloseFigures } from './daily-close';
import type { EngineAdapter } from './engine/engine-adapter';
import { OUTBOX_EVENT_COLUMNS, type OutboxStatements } from './engine/outbox-write';
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

/** A debit of an imported statement that no transfer explains. */
export interface UnknownDebit {
  statementId: string;
  account: string;
  line: { number: number; date: string; amount: string; reference: string; description: string };
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
  /** The W3C `traceparent` of the change that caused it, when it was traced (its deliveries continue that trace). */
  traceParent?: string;
}

/** Given to MovementStore to have events written with the changes. */
export interface Outbox {
  /** The events of `change`, rendered inside its transaction (synchronously: the transaction waits). */
  render(change: MovementChange, atMs: number): OutboxEvent[];
  /** The events announcing a day's close (its figures per source account). */
  renderDailyClose(day: string, figures: AccountCloseFigures[], atMs: number): OutboxEvent[];
  /** The events of a statement's debits no transfer explains (each new bank line once), rendered in its import. */
  renderUnknownDebits(debits: UnknownDebit[], atMs: number): OutboxEvent[];
  /** Called once a transaction that wrote events committed (to wake a dispatcher in this process). */
  committed(): void;
}

// Each event gets one delivery per endpoint that is enabled and wants its type (`*`, or `,type,` within the
// comma-wrapped list). An endpoint registered later gets the events written after it.
const matchingEndpoint = (engine: EngineAdapter) =>
  `e."disabled_at_ms" IS NULL AND (e."event_types" = '*' OR ${engine.position('e."event_types"', `',' || ev."type" || ','`)} > 0)`;

const DELIVERY_COLUMNS = `"event_seq", "endpoint_id", "origin_id", "state", "attempts", "next_attempt_at_ms", "created_at_ms"`;

/**
 * Writes `events` and their deliveries, due at `nowMs`, in the caller's transaction (`only.endpointId`: one
 * delivery, to that endpoint whatever the types it wants: a test event), as the engine writes rows that feed
 * others (EngineAdapter.writeOutboxRows).
 */
export async function writeOutboxEvents(
  manager: EntityManager,
  engine: EngineAdapter,
  events: readonly OutboxEvent[],
  nowMs: number,
  only: { endpointId?: string } = {},
): Promise<void> {
  const statements = outboxStatements(engine, events, nowMs, only);
  if (statements !== undefined) await engine.writeOutboxRows(manager, statements);
}

/** The statements writing `events` and their deliveries (see writeOutboxEvents); undefined for no event. */
export function outboxStatements(
  engine: EngineAdapter,
  events: readonly OutboxEvent[],
  nowMs: number,
  only: { endpointId?: string } = {},
): OutboxStatements | undefined {
  if (events.length === 0) return undefined;
  const eventRows = events.map((event) => [
    event.id,
    event.type,
    event.originId,
    event.payload,
    nowMs,
    event.traceParent ?? null,
  ]);
  // On Postgres an array per column: an import of a statement writes an event per debit no transfer explains, a
  // thousand in a statement, which as one row of placeholders each cost the server a plan of six thousand.
  const rows = engine.rowSource(OUTBOX_EVENT_COLUMNS, eventRows);
  const insertEvents = `INSERT INTO "giro_webhook_events" ("id", "type", "origin_id", "payload", "created_at_ms",
    "trace_parent") ${rows.text}`;
  const endpoints = only.endpointId === undefined ? matchingEndpoint(engine) : 'e."id" = ?';
  const endpointParameters = only.endpointId === undefined ? [] : [only.endpointId];
  const deliveries = (events: string, where: string) => `INSERT INTO "giro_webhook_deliveries" (${DELIVERY_COLUMNS})
    SELECT ev."seq", e."id", ev."origin_id", 'pending', 0, ?, ? FROM ${events}
    JOIN "giro_webhook_endpoints" e ON ${endpoints} ${where} ORDER BY ev."seq"`;
  return {
    insertEvents,
    eventParameters: rows.parameters,
    eventRows,
    deliveries,
    deliveryParameters: [nowMs, nowMs, ...endpointParameters],
  };
}
