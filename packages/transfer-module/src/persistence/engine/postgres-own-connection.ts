import type { EventEmitter } from 'node:events';
import type { DataSource } from 'typeorm';

/** How long a lost connection waits before it is opened again. */
const RECONNECT_AFTER_MS = 1000;

export interface PgClient extends EventEmitter {
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

/** What an own connection does besides connecting. */
export interface OwnConnectionRole {
  /** The name the connection shows in pg_stat_activity when the data source gives none. */
  applicationName: string;
  /** Run on each new connection before it is used (LISTEN). */
  prepare?(client: PgClient): Promise<void>;
  /** Called after each (re)connection. */
  onOpened?(): void;
}

/**
 * One connection to Postgres outside the data source's pool, for work that must not queue behind the pool's
 * transactions (a pool saturated by writers delays each statement by the whole queue). It is opened at once; a
 * connection the server ends is opened again after RECONNECT_AFTER_MS, or at the next use; a statement on a lost
 * connection fails (its caller treats it as the database being out).
 */
export class PostgresOwnConnection {
  private client: PgClient | undefined;
  private connecting: Promise<PgClient> | undefined;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(
    private readonly dataSource: DataSource,
    private readonly role: OwnConnectionRole,
  ) {
    this.connected().catch(() => this.reconnectLater());
  }

  /** The open connection, opened first if there is none. */
  connected(): Promise<PgClient> {
    if (this.closed) return Promise.reject(new Error(`the ${this.role.applicationName} connection is closed`));
    if (this.client !== undefined) return Promise.resolve(this.client);
    this.connecting ??= this.open().finally(() => {
      this.connecting = undefined;
    });
    return this.connecting;
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.reconnectTimer);
    await this.connecting?.catch(() => undefined);
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }

  private async open(): Promise<PgClient> {
    const driver = this.dataSource.driver as unknown as PgDriver;
    const options = driver.master.options;
    const client = new driver.postgres.Client({
      ...options,
      application_name: options.application_name ?? this.role.applicationName,
      // Long-lived and often idle: a peer gone without a word is found out by TCP keepalive.
      keepAlive: true,
    });
    // An ended connection emits 'error' and 'end'; unhandled, 'error' would crash the process.
    client.on('error', () => this.lost(client));
    client.on('end', () => this.lost(client));
    try {
      await client.connect();
      await this.role.prepare?.(client);
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
    if (this.closed || ended.has(client)) {
      await client.end().catch(() => undefined);
      throw new Error(
        this.closed ? `the ${this.role.applicationName} connection is closed` : 'the connection ended at once',
      );
    }
    this.client = client;
    this.role.onOpened?.();
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
