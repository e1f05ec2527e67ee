import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { LoggerService } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { systemClock } from '../domain';
import { type ResolvedWebhookOptions, resolveWebhookOptions } from '../options';
import { MovementStore, WebhookStore } from '../persistence';
import { sampleIntent } from '../persistence/testing/sample-intent';
import { describeEachEngine, describeOnPostgres, type EngineDatabase } from '../persistence/testing/test-engines';
import { TransferEventOutbox } from './transfer-event-outbox';
import { WebhookDispatcher } from './webhook-dispatcher';
import { WebhookWakeUp } from './webhook-wake-up';

// How a started dispatcher learns of new events without waiting for its poll, which these tests set to a minute:
// every delivery they wait for (at most WITHIN_MS) must come from a wake-up.

const POLL_MS = 60_000;
const WITHIN_MS = 15_000;

const quietLogger: LoggerService = { log() {}, warn() {}, error() {} };

async function startReceiver() {
  const originIds: number[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { data: { originId: number } };
      originIds.push(body.data.originId);
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    originIds,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Resolves once `check` holds; fails after WITHIN_MS (well under the poll interval). */
async function until(check: () => boolean | Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + WITHIN_MS;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${WITHIN_MS} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A process's side: a data source with its own stores, outbox and wake-up, writing transfers' events. */
function writer(dataSource: DataSource) {
  const wakeUp = new WebhookWakeUp();
  const movements = new MovementStore(dataSource, systemClock, { outbox: new TransferEventOutbox(wakeUp) });
  return {
    wakeUp,
    record: (originId: number) => {
      const { intent, fingerprint } = sampleIntent(originId);
      return movements.recordIntent(intent, fingerprint, { sendNow: false });
    },
  };
}

async function dispatcherFixture(database: EngineDatabase) {
  const dataSource = await database.connectMigrated();
  const receiver = await startReceiver();
  const local = writer(dataSource);
  const webhooks = new WebhookStore(dataSource, systemClock);
  await webhooks.createEndpoint({ id: 'ep', url: receiver.url, description: null, eventTypes: [], secret: SECRET });
  const options = resolveWebhookOptions({ allowLoopback: true, pollIntervalMs: POLL_MS }) as ResolvedWebhookOptions;
  const dispatcher = new WebhookDispatcher(webhooks, local.wakeUp, options, systemClock, 'dispatcher', quietLogger);
  return { dataSource, receiver, local, dispatcher };
}

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

describeEachEngine('a started WebhookDispatcher', (engine) => {
  it('delivers the events committed in its process without waiting for its poll', async () => {
    const { receiver, local, dispatcher } = await dispatcherFixture(await engine.createDatabase());
    try {
      dispatcher.start();
      // The start's first pass finds nothing; the next events come once it waits for its poll.
      await local.record(1);
      await until(() => receiver.originIds.includes(1), 'the first event');
      await local.record(2);
      await local.record(3);
      await until(() => receiver.originIds.includes(2) && receiver.originIds.includes(3), 'the next events');
      expect(receiver.originIds).toEqual([1, 2, 3]);
    } finally {
      await dispatcher.stop();
      await receiver.close();
    }
  });
});

describeOnPostgres('a started WebhookDispatcher', (engine) => {
  /** The backends of the dispatchers' own connections (LISTEN) on this database. */
  const listeners = (dataSource: DataSource): Promise<{ pid: number }[]> =>
    dataSource.query(
      `SELECT "pid" FROM pg_stat_activity WHERE "datname" = current_database()
        AND "application_name" = 'giro webhook dispatcher'`,
    );

  it('hears of events another process commits (LISTEN/NOTIFY), again after its connection was ended', async () => {
    const database = await engine.createDatabase();
    const { dataSource, receiver, dispatcher } = await dispatcherFixture(database);
    // Another process: its own data source and wake-up, which the dispatcher does not share.
    const other = writer(await database.connect());
    try {
      dispatcher.start();
      await until(async () => (await listeners(dataSource)).length === 1, 'the dispatcher listening');
      await other.record(11);
      await until(() => receiver.originIds.includes(11), 'an event of the other process');

      const [{ pid }] = await listeners(dataSource);
      await dataSource.query('SELECT pg_terminate_backend($1)', [pid]);
      // Committed while the dispatcher may hear nothing: delivered once its connection is back, not at the poll.
      await other.record(12);
      await until(async () => {
        const now = await listeners(dataSource);
        return now.length === 1 && now[0].pid !== pid;
      }, 'the dispatcher listening again');
      await until(() => receiver.originIds.includes(12), 'the event committed while it was cut off');
      await other.record(13);
      await until(() => receiver.originIds.includes(13), 'an event after the reconnection');
      expect(receiver.originIds).toEqual([11, 12, 13]);
    } finally {
      await dispatcher.stop();
      await receiver.close();
    }
    // Stopped: its connection is closed.
    await until(async () => (await listeners(dataSource)).length === 0, 'the connection closed');
  });

  it('claims and records on its own connection while every connection of the pool is taken', async () => {
    const database = await engine.createDatabase();
    const { dataSource, receiver, dispatcher } = await dispatcherFixture(database);
    const other = await database.connect();
    const second = writer(other);
    // Every connection of the pool (pg's default of 10) held in an open transaction, as by writers queued up.
    const holders = await Promise.all(
      Array.from({ length: 10 }, async () => {
        const runner = dataSource.createQueryRunner();
        await runner.startTransaction();
        return runner;
      }),
    );
    try {
      dispatcher.start();
      await until(async () => (await listeners(other)).length === 1, 'the dispatcher listening');
      await second.record(21);
      await until(() => receiver.originIds.includes(21), 'the event, with the pool taken');
      await until(async () => {
        const rows: { state: string }[] = await other.query('SELECT "state" FROM "giro_webhook_deliveries"');
        return rows.length === 1 && rows[0].state === 'delivered';
      }, 'its result recorded, with the pool taken');
    } finally {
      for (const runner of holders) {
        await runner.rollbackTransaction();
        await runner.release();
      }
      await dispatcher.stop();
      await receiver.close();
    }
  });
});
