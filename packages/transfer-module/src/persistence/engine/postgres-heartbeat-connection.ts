import type { DataSource } from 'typeorm';
import { AsyncMutex } from './async-mutex';
import type { HeartbeatConnection, RunStatement } from './engine-adapter';
import { PostgresOwnConnection } from './postgres-own-connection';

/**
 * A replica's heartbeat connection to Postgres, outside the data source's pool (PostgresOwnConnection): a busy
 * replica's writers can fill the pool and queue in front of it, and a heartbeat waiting in that queue for longer
 * than the takeover's silence would let the other replicas take this one's leases while it works on them. Its
 * transactions take turns on the one connection; one on a lost connection fails (the heartbeat keeps its last
 * share and tries again at its next beat, on a connection opened again).
 */
export class PostgresHeartbeatConnection implements HeartbeatConnection {
  private readonly connection: PostgresOwnConnection;
  private readonly turns = new AsyncMutex();

  constructor(dataSource: DataSource) {
    this.connection = new PostgresOwnConnection(dataSource, { applicationName: 'giro replica heartbeat' });
  }

  write<T>(work: (run: RunStatement) => Promise<T>, serializeKey?: number): Promise<T> {
    return this.turns.runExclusive(async () => {
      const client = await this.connection.connected();
      const run: RunStatement = async (sql, parameters) => (await client.query(sql, parameters)).rows;
      await client.query('BEGIN');
      try {
        if (serializeKey !== undefined) await client.query('SELECT pg_advisory_xact_lock($1)', [serializeKey]);
        const result = await work(run);
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      }
    });
  }

  close(): Promise<void> {
    return this.connection.close();
  }
}
