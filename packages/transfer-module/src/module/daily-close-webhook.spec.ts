import type { SandboxBank } from '@giro/sandbox-bank';
import { giroOptions, manualClock, startTestSandbox, transferRequest } from '@test-support/giro-harness';
import type { DataSource } from 'typeorm';
import { BankClient } from '../bank';
import type { ManualClock } from '../domain';
import { senderFixture } from '../movement/testing/sender-fixture';
import { resolveTransferModuleOptions } from '../options';
import { describeEachEngine, type EngineDatabase } from '../persistence/testing/test-engines';
import { SweepService } from '../sweep';
import { TransferService } from '../transfer';
import { TransferEventOutbox, WebhookWakeUp } from '../webhooks';

// `report.daily_closed`: written by the sweep once a Buenos Aires day has ended (plus the margin), on the sweep's
// clock; once per day whatever the sweeps, replicas and restarts, since the day's row and the event are one
// transaction and the day's key is unique.

const NOON_21 = Date.UTC(2026, 10, 21, 15, 0, 0);
// Day 21 ends at 2026-11-22T03:00Z (midnight in Buenos Aires); its close is due 5 minutes later.
const CLOSE_OF_21 = Date.UTC(2026, 10, 22, 3, 5, 0);

describeEachEngine('report.daily_closed', (engine) => {
  let bank: SandboxBank;
  let clock: ManualClock;
  const clients: BankClient[] = [];

  beforeEach(async () => {
    clock = manualClock();
    clock.set(NOON_21);
    bank = await startTestSandbox(clock);
  });
  afterEach(async () => {
    for (const client of clients.splice(0)) await client.close();
    await bank.close();
  });

  /** A process of giro on the database: its own connection, store (with the outbox), sweep and transfer service. */
  async function replica(database: EngineDatabase, migrate = false) {
    const dataSource = migrate ? await database.connectMigrated() : await database.connect();
    const options = resolveTransferModuleOptions(await giroOptions(bank, clock));
    const client = new BankClient(options.bank);
    clients.push(client);
    const outbox = new TransferEventOutbox(new WebhookWakeUp());
    const parts = senderFixture(options, dataSource, client, { outbox });
    const { store, sender, schedule, work, owner, logger, events } = parts;
    return {
      dataSource,
      sweeper: new SweepService(options, store, sender, schedule, work, owner, logger, events),
      transfers: new TransferService(options, store, sender, work),
    };
  }

  async function announced(dataSource: DataSource) {
    const rows: { payload: string }[] = await dataSource.query(
      `SELECT "payload" FROM "giro_webhook_events" WHERE "type" = 'report.daily_closed' ORDER BY "seq"`,
    );
    return rows.map((row) => JSON.parse(row.payload));
  }

  it('announces each ended day once, after its midnight and the margin, also after a restart and with two replicas', async () => {
    const database = await engine.createDatabase();
    const first = await replica(database, true);
    const request = transferRequest('rent');
    await first.transfers.requestTransfer(request);

    // The first sweep closes the last day that ended (the 20th, nothing in it); the 21st is still going on.
    expect(await first.sweeper.sweep()).toMatchObject({ closedDay: '2026-11-20' });
    expect(await first.sweeper.sweep()).toMatchObject({ closedDay: null });
    clock.set(CLOSE_OF_21 - 1);
    expect(await first.sweeper.sweep()).toMatchObject({ closedDay: null });
    expect((await announced(first.dataSource)).map((event) => event.data.day)).toEqual(['2026-11-20']);

    clock.set(CLOSE_OF_21);
    expect(await first.sweeper.sweep()).toMatchObject({ closedDay: '2026-11-21' });
    const [, close] = await announced(first.dataSource);
    expect(close).toMatchObject({
      type: 'report.daily_closed',
      timestamp: new Date(CLOSE_OF_21).toISOString(),
      data: {
        day: '2026-11-21',
        startsAt: '2026-11-21T03:00:00.000Z',
        endsAt: '2026-11-22T03:00:00.000Z',
        accounts: [{ account: request.from.address, created: { count: 1, amount: request.body.amount } }],
        totals: { created: { count: 1, amount: request.body.amount } },
      },
    });
    expect(await first.sweeper.sweep()).toMatchObject({ closedDay: null });

    // A restart: a new process on the same database does not announce the 21st again.
    await first.sweeper.onModuleDestroy();
    await first.dataSource.destroy();
    const restarted = await replica(database);
    expect(await restarted.sweeper.sweep()).toMatchObject({ closedDay: null });
    expect(await announced(restarted.dataSource)).toHaveLength(2);

    // Two replicas sweeping at once when the 22nd ends: one announcement.
    const other = await replica(database);
    clock.set(CLOSE_OF_21 + 24 * 3_600_000);
    const reports = await Promise.all([restarted.sweeper.sweep(), other.sweeper.sweep()]);
    expect(reports.map((report) => report.closedDay).filter((day) => day !== null)).toEqual(['2026-11-22']);
    expect((await announced(other.dataSource)).map((event) => event.data.day)).toEqual([
      '2026-11-20',
      '2026-11-21',
      '2026-11-22',
    ]);
    await restarted.sweeper.onModuleDestroy();
    await other.sweeper.onModuleDestroy();
    await restarted.dataSource.destroy();
    await other.dataSource.destroy();
  });

  it('announces every day missed while giro was stopped over several midnights, oldest first, each once', async () => {
    const database = await engine.createDatabase();
    const first = await replica(database, true);
    expect(await first.sweeper.sweep()).toMatchObject({ closedDay: '2026-11-20' });
    await first.sweeper.onModuleDestroy();
    await first.dataSource.destroy();

    // Stopped from the 21st until three days later: the 21st, 22nd and 23rd ended meanwhile.
    clock.set(CLOSE_OF_21 + 2 * 24 * 3_600_000);
    const restarted = await replica(database);
    expect(await restarted.sweeper.sweep()).toMatchObject({ closedDay: '2026-11-23' });
    expect(await restarted.sweeper.sweep()).toMatchObject({ closedDay: null });
    expect((await announced(restarted.dataSource)).map((event) => event.data.day)).toEqual([
      '2026-11-20',
      '2026-11-21',
      '2026-11-22',
      '2026-11-23',
    ]);
    await restarted.sweeper.onModuleDestroy();
    await restarted.dataSource.destroy();
  });
});
