import type { EventEmitter } from 'node:events';
import type { DataSource } from 'typeorm';
import type { DeliveryConnection } from './engine-adapter';

/** The channel on which a commit of webhook events is announced to the dispatchers of every process. */
export const WEBHOOK_EVENTS_CHANNEL = 'giro_webhook_events';

/** How long a lost connection waits before it is opened again (the dispatcher polls meanwhile). */
const RECONNECT_AFTER_MS = 1000;

/** The least time between two announcements of one process: other processes' dispatchers hear within it. */
const ANNOUNCE_SPACING_MS = 20;

/** The name the connection shows in pg_stat_activity when the data source gives none. */
const APPLICATION_NAME = 'giro webhook dispatcher';

interface PgClient extends EventEmitter {
  connect(): Promise<void>;
  query(sql: string, parameters?: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
  end(): Promise<void>;
}

interface PgDriver {
  postgres: { Client: new (options: Record<string, unknown>) => PgClient };
  master: { options: Record<string, unknown> };
}

/** Clients whose connection ended (before or after they were taken into use). */
const ended = new WeakSet<PgClient>();

/**
 * A running dispatcher's own connection to Postgres, outside the data source's pool: its claims and results are
 * not queued behind the transactions that write the events (a pool saturated by writers would delay each claim
 * by the whole queue), and it LISTENs on WEBHOOK_EVENTS_CHANNEL, calling `onNews` for each announcement (events
 * committed by any process) and after each (re)connection (what was committed while nobody listened). A
 * connection the server ends is opened again after RECONNECT_AFTER_MS, or at the next statement; a statement
 * on a lost connection fails (the dispatcher treats it as the database being out). A hint only: the outbox
 * table is the truth, and the dispatcher still polls.
 */
export class PostgresDeliveryConnection implements DeliveryConnection {
  private client: PgClient | undefined;
  private connecting: Promise<PgClient> | undefined;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(
    private readonly dataSource: DataSource,
    private readonly onNews: () => void,
  ) {
    this.connected().catch(() => this.reconnectLater());
  }

  async run(sql: string, parameters: unknown[]): Promise<Record<string, unknown>[]> {
    const client = await this.connected();
    return (await client.query(sql, parameters)).rows;
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.reconnectTimer);
    await this.connecting?.catch(() => undefined);
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }

  private connected(): Promise<PgClient> {
    if (this.closed) return Promise.reject(new Error('the webhook delivery connection is closed'));
    if (this.client !== undefined) return Promise.resolve(this.client);
    this.connecting ??= this.open().finally(() => {
      this.connecting = undefined;
    });
    return this.connecting;
  }

  private async open(): Promise<PgClient> {
    const driver = this.dataSource.driver as unknown as PgDriver;
    const options = driver.master.options;
    const client = new driver.postgres.Client({
      ...options,
      application_name: options.application_name ?? APPLICATION_NAME,
      // Long-lived and often idle: a peer gone without a word is found out by TCP keepalive.
      keepAlive: true,
    });
    // An ended connection emits 'error' and 'end'; unhandled, 'error' would crash the process.
    client.on('error', () => this.lost(client));
    client.on('end', () => this.lost(client));
    client.on('notification', () => this.onNews());
    try {
      await client.connect();
      await client.query(`LISTEN ${WEBHOOK_EVENTS_CHANNEL}`);
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
    if (this.closed || ended.has(client)) {
      await client.end().catch(() => undefined);
      throw new Error(this.closed ? 'the webhook delivery connection is closed' : 'the connection ended at once');
    }
    this.client = client;
    this.onNews();
    return client;
  }

  private lost(client: PgClient): void {
    ended.add(client);
    if (this.client !== client) return;
    this.client = undefined;
    client.end().catch(() => undefined);
    this.reconnectLater();
  }

  private reconnectLater(): void {
    if (this.closed || this.reconnectTimer !== undefined) return;
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = undefined;
      if (this.client === undefined) this.connected().catch(() => this.reconnectLater());
    }, RECONNECT_AFTER_MS);
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
    const notified = this.dataSource
      .query('SELECT pg_notify($1, $2)', [WEBHOOK_EVENTS_CHANNEL, ''])
      .catch(() => undefined);
    void Promise.all([notified, spaced]).then(() => {
      this.busy = false;
      if (!this.again) return;
      this.again = false;
      this.announce();
    });
  }
}
