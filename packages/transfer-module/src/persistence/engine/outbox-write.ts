import type { EntityManager } from 'typeorm';
import { queryWithCount } from './query-with-count';
import { numberedPlaceholders } from './raw-rows';

/** The statements that write outbox events and their deliveries (outbox.ts), `?` placeholders. */
export interface OutboxStatements {
  /** The events' INSERT, without RETURNING; its parameters: eventParameters. */
  insertEvents: string;
  eventParameters: unknown[];
  /** The same events' values, a row each, in the order of OUTBOX_EVENT_COLUMNS (for a statement of arrays). */
  eventRows: unknown[][];
  /**
   * The deliveries' INSERT … SELECT from `events` (the events just inserted, aliased `ev`), restricted by `where`;
   * its parameters: deliveryParameters, then those of `where`.
   */
  deliveries(events: string, where: string): string;
  deliveryParameters: unknown[];
}

/** The events' columns, in the order of OutboxStatements.eventRows, with their SQL types. */
export const OUTBOX_EVENT_COLUMNS = [
  { name: 'id', type: 'text' },
  { name: 'type', type: 'text' },
  { name: 'origin_id', type: 'bigint' },
  { name: 'payload', type: 'text' },
  { name: 'created_at_ms', type: 'bigint' },
  { name: 'trace_parent', type: 'text' },
] as const;

/** Postgres: one statement, the events' INSERT feeding the deliveries' through a CTE. */
export async function writePostgresOutboxRows(manager: EntityManager, statements: OutboxStatements): Promise<void> {
  const sql = `WITH ev AS (${statements.insertEvents} RETURNING "seq", "type", "origin_id") ${statements.deliveries('ev', '')}`;
  await queryWithCount(manager, numberedPlaceholders(sql), [
    ...statements.eventParameters,
    ...statements.deliveryParameters,
  ]);
}

/** SQLite, which has no DML in a CTE: the events' INSERT, then the deliveries' of the events it inserted. */
export async function writeSqliteOutboxRows(manager: EntityManager, statements: OutboxStatements): Promise<void> {
  const inserted = await queryWithCount(
    manager,
    `${statements.insertEvents} RETURNING "seq"`,
    statements.eventParameters,
  );
  const seqs = (inserted.records ?? []).map((row: { seq: number }) => row.seq);
  const sql = statements.deliveries(
    '"giro_webhook_events" ev',
    `WHERE ev."seq" IN (${seqs.map(() => '?').join(', ')})`,
  );
  await queryWithCount(manager, sql, [...statements.deliveryParameters, ...seqs]);
}
