import type { SandboxBank } from '@giro/sandbox-bank';
import type { ManualClock } from '@giro/transfer-module/testing';
import { allMovements, expectBankSawTheContract, expectNoRepeatedTransition } from './support/contract-checks';
import { describeOnPostgres } from './support/engines';
import {
  type Giro,
  giroOptions,
  manualClock,
  POLLING,
  sandboxBankOptions,
  startGiro,
  startTestSandbox,
  transferRequest,
} from './support/giro-harness';
import { TcpProxy } from './support/tcp-proxy';

// Two replicas on one Postgres database (two data sources, two lease owners) sweeping at the same time:
// no movement is ever queried sooner than the polling rule allows (the bank's own audit and its ledger
// times), no answer is written twice, and a replica whose lease ran out writes nothing.

/** Longer than the longest bank call plus the interval (2.1 s with the test timeouts). */
const LEASE_MS = 3_000;

describeOnPostgres('two sweepers on one database', (engine) => {
  let clock: ManualClock;
  let bank: SandboxBank;
  const giros: Giro[] = [];
  let proxy: TcpProxy | undefined;

  beforeEach(async () => {
    clock = manualClock();
    bank = await startTestSandbox(clock);
  });
  afterEach(async () => {
    proxy?.release();
    for (const giro of giros.splice(0)) await giro.close();
    await proxy?.close();
    proxy = undefined;
    await bank.close();
  });

  async function replica(databaseUrl: string, bankUrl = bank.url, sweep = {}) {
    const giro = await startGiro(
      await giroOptions(bank, clock, {
        databaseUrl,
        bank: await sandboxBankOptions(bankUrl),
        sweep: { batchSize: 5, ...sweep },
      }),
    );
    giros.push(giro);
    return giro;
  }

  it('race through the same movements without polling any of them too soon or writing anything twice', async () => {
    const databaseUrl = await engine.createDatabaseUrl();
    const [a, b] = [await replica(databaseUrl), await replica(databaseUrl)];
    expect(a.reconcile.owner).not.toBe(b.reconcile.owner);
    const scenarios = ['rent', 'rent [delay]', 'rent [fail]', 'rent [lost]'];
    for (let i = 0; i < 24; i++) await (i % 2 ? b : a).transfers.requestTransfer(transferRequest(scenarios[i % 4]));

    const worked = { a: 0, b: 0 };
    for (let round = 0; round < 300; round++) {
      const counts = await a.store.countByStatus();
      if (counts.PENDING + counts.CREATED + counts.IN_PROGRESS + counts.DELAYED === 0) break;
      clock.advance(25);
      const [fromA, fromB] = await Promise.all([a.reconcile.sweep(), b.reconcile.sweep()]);
      worked.a += fromA.queried + fromA.sent;
      worked.b += fromB.queried + fromB.sent;
    }

    expect(worked.a).toBeGreaterThan(0); // both really took part
    expect(worked.b).toBeGreaterThan(0);
    const movements = await allMovements(a.movements);
    expect(movements.every((m) => m.status === 'COMPLETED' || m.status === 'FAILED')).toBe(true);
    for (const movement of movements) expectNoRepeatedTransition(movement);
    await expectBankSawTheContract(bank, a.movements);
    // The ledger's own times: consecutive lookups of a movement at least the interval apart (DELAYED: more).
    for (const entry of bank.ledger.page({ limit: 1000 }).entries) {
      for (let i = 1; i < entry.lookups.length; i++) {
        const gap = Date.parse(entry.lookups[i].at) - Date.parse(entry.lookups[i - 1].at);
        const minimum =
          entry.lookups[i - 1].answered === 'DELAYED' ? POLLING.delayedMinIntervalMs + 1 : POLLING.minIntervalMs;
        if (entry.lookups[i - 1].answered !== 'NOT_FOUND') expect(gap).toBeGreaterThanOrEqual(minimum);
      }
    }
  });

  it('never writes a row whose lease another sweeper took over (fencing)', async () => {
    const databaseUrl = await engine.createDatabaseUrl();
    // A's calls go through a proxy that, once armed, holds the bank's answers after it has answered a lookup.
    let armed = false;
    let lookupsBefore = 0;
    const lookups = () => bank.counters().requests['get-movement']?.found ?? 0;
    proxy = await TcpProxy.start(bank.url, { holdServerData: () => armed && lookups() > lookupsBefore });
    const a = await replica(databaseUrl, proxy.url, { concurrency: 1, leaseMs: LEASE_MS });
    const b = await replica(databaseUrl, bank.url, { leaseMs: LEASE_MS });
    const { movement } = await b.transfers.requestTransfer(transferRequest('rent'));
    clock.advance(200); // due, and IN_PROGRESS at the bank

    armed = true;
    lookupsBefore = lookups();
    const sweepOfA = a.reconcile.sweep(); // A claims it and asks; the answer (IN_PROGRESS) is held
    await proxy.held;
    clock.advance(LEASE_MS + 1); // A's lease runs out while it waits; the bank now has it COMPLETED
    // B takes it over, but A may have been answered DELAYED: B asks nothing until DELAYED's rule has passed.
    expect(await b.reconcile.sweep()).toMatchObject({ claimed: 1, queried: 0 });
    clock.advance(POLLING.delayedMinIntervalMs + 1);
    const fromB = await b.reconcile.sweep();
    expect(fromB).toMatchObject({ claimed: 1, queried: 1, completed: 1 });
    proxy.release(); // A finally hears IN_PROGRESS, with a lease that is no longer its own
    const fromA = await sweepOfA;
    expect(fromA).toMatchObject({ claimed: 1, queried: 1, changed: 0 });

    const stored = await b.movements.getMovement(movement.originId);
    expect(stored).toMatchObject({ status: 'COMPLETED', queries: 1, anomalies: [] }); // B's write only
    expect(stored.history.map((h) => h.to)).toEqual(['PENDING', 'CREATED', 'COMPLETED']);
    expect(stored.lastAnswerAt).toBe(new Date(clock.now()).toISOString());
    expect(bank.ledger.entry(movement.originId)?.lookups.map((l) => l.answered)).toEqual(['IN_PROGRESS', 'COMPLETED']);
    expect(bank.counters().pollsTooEarly).toBe(0);
  });
});
