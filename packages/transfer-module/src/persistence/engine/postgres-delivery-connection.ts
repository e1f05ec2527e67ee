import type { DataSource } from 'typeorm';
import type { DeliveryConnection } from './engine-adapter';
import { PostgresOwnConnection } from './postgres-own-connection';

/** The channel on which a commit of webhook events is announced to the dispatchers of every process. */
export const WEBHOOK_EVENTS_CHANNEL = 'giro_webhook_events';

/** The least time between two announcements of one process: other processes' dispatchers hear within it. */
const ANNOUNCE_SPACING_MS = 20;

/**
 * A running dispatcher's own connection to Postgres, outside the data source's pool (PostgresOwnConnection): its
 * claims and results are not queued behind the transactions that write the events, and it LISTENs on
 * WEBHOOK_EVENTS_CHANNEL, calling `onNews` for each announcement (events committed by any process) and after each
 * (re)connection (what was committed while nobody listened). A statement on a lost connection fails (the
 * dispatcher treats it as the database being out; it polls meanwhile). A hint only: the outbox table is the
 * truth, and the dispatcher still polls.
 */
export class PostgresDeliveryConnection implements DeliveryConnection {
  private readonly connection: PostgresOwnConnection;

  constructor(dataSource: DataSource, onNews: () => void) {
    this.connection = new PostgresOwnConnection(dataSource, {
      applicationName: 'giro webhook dispatcher',
      prepare: async (client) => {
        // What this connection writes is only leases and attempts' results: lost in a crash of the server, the
        // delivery is pending again and is sent again with the same id (at least once), never forgotten. So its
        // commits need not wait for the WAL to reach the disk: the claim that precedes each POST, and the record
        // that the next claim queues behind on this one connection, no longer wait on the writers' flushes, nor
        // add their own to them. WAL order still holds: a commit that waits flushes every earlier one.
        await client.query('SET synchronous_commit = off');
        client.on('notification', () => onNews());
        await client.query(`LISTEN ${WEBHOOK_EVENTS_CHANNEL}`);
      },
      onOpened: onNews,
    });
  }

  async run(sql: string, parameters: unknown[]): Promise<Record<string, unknown>[]> {
    const client = await this.connection.connected();
    return (await client.query(sql, parameters)).rows;
  }

  close(): Promise<void> {
    return this.connection.close();
  }
}

/**
 * Announces commits of webhook events on WEBHOOK_EVENTS_CHANNEL, after the commit and outside the writing
 * transaction: a NOTIFY inside it would serialise the commits of every writer on Postgres's notification lock.
 * An announcement is a transaction of its own (flushed like any commit), so they are spaced: at most one in
 * flight and one per ANNOUNCE_SPACING_MS per data source, the commits made meanwhile sharing the next. A failed
 * one is dropped (the dispatchers poll).
 */
export class PostgresEventsAnnouncer {
  private busy = false;
  private again = false;

  constructor(
    private readonly dataSource: DataSource,
    private readonly spacingMs = ANNOUNCE_SPACING_MS,
  ) {}

  announce(): void {
    if (this.busy) {
      this.again = true;
      return;
    }
    this.busy = true;
    const spaced = new Promise<void>((resolve) => setTimeout(resolve, this.spacingMs));
    // A notifying transaction is given an xid, so its commit would wait for a flush of the WAL like a writer's,
    // and add one to the writers' queue: a hint lost in a crash of the server costs a poll, so it does not wait.
    const notified = this.dataSource
      .query(`SELECT set_config('synchronous_commit', 'off', true), pg_notify($1, $2)`, [WEBHOOK_EVENTS_CHANNEL, ''])
      .catch(() => undefined);
    void Promise.all([notified, spaced]).then(() => {
      this.busy = false;
      if (!this.again) return;
      this.again = false;
      this.announce();
    });
  }
}
