import { Client } from 'pg';
import type { DataSource } from 'typeorm';
import { describeOnPostgres } from '../testing/test-engines';
import {
  PostgresDeliveryConnection,
  PostgresEventsAnnouncer,
  WEBHOOK_EVENTS_CHANNEL,
} from './postgres-delivery-connection';

const WITHIN_MS = 10_000;

/** Resolves once `check` holds; fails after WITHIN_MS. */
async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + WITHIN_MS;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${WITHIN_MS} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describeOnPostgres("a dispatcher's own connection and the announcements", (engine) => {
  let dataSource: DataSource;
  let url: string;
  beforeEach(async () => {
    const database = await engine.createDatabase();
    url = database.url;
    dataSource = await database.connectMigrated();
  });

  it("commits its leases and results without waiting for the WAL's flush, while the pool's writers still wait", async () => {
    const connection = new PostgresDeliveryConnection(dataSource, () => {});
    try {
      expect(await connection.run('SHOW synchronous_commit', [])).toEqual([{ synchronous_commit: 'off' }]);
      expect(await dataSource.query('SHOW synchronous_commit')).toEqual([{ synchronous_commit: 'on' }]);
    } finally {
      await connection.close();
    }
  });

  it('announces on the channel, and the pool connection it used keeps waiting for the flush afterwards', async () => {
    const listener = new Client({ connectionString: url });
    await listener.connect();
    const heard: string[] = [];
    listener.on('notification', (message) => heard.push(message.channel));
    try {
      await listener.query(`LISTEN ${WEBHOOK_EVENTS_CHANNEL}`);
      new PostgresEventsAnnouncer(dataSource, 0).announce();
      await until(() => heard.length === 1, 'the announcement');
      expect(heard).toEqual([WEBHOOK_EVENTS_CHANNEL]);
      // The setting was the announcement's transaction's only: a writer on any pooled connection is durable.
      const settings: { synchronous_commit: string }[][] = await Promise.all(
        Array.from({ length: 10 }, () => dataSource.query('SHOW synchronous_commit')),
      );
      expect(settings.flat().map((row) => row.synchronous_commit)).toEqual(Array(10).fill('on'));
    } finally {
      await listener.end();
    }
  });
});
