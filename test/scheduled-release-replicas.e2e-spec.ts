import type { SandboxBank } from '@giro/sandbox-bank';
import { completeCbuCvu, completeCuit } from '@giro/transfer-module';
import type { ManualClock } from '@giro/transfer-module/testing';
import { allMovements, expectBankSawTheContract, expectNoRepeatedTransition } from './support/contract-checks';
import { describeOnPostgres } from './support/engines';
import {
  type Giro,
  giroOptions,
  manualClock,
  startGiro,
  startTestSandbox,
  transferRequest,
} from './support/giro-harness';

// Two replicas on one Postgres database (two module instances, two data sources, two lease owners) releasing the
// same scheduled transfers at once, on one manual clock: nothing reaches the bank a millisecond before its
// moment, each is released once (one release row in its history) and sent once (the bank processed none twice).
// Which replica sends what, and so the bank's order, depends on the machine's timing: the fair order of a batch is
// the store's and the sweep's specs' (movement-store.fair-share, sweep/fair-release).

const OTHER_ACCOUNT = { address: completeCbuCvu('0000003', '1000000000031'), personId: completeCuit('3071234567') };

describeOnPostgres('two replicas releasing the same scheduled transfers', (engine) => {
  let clock: ManualClock;
  let bank: SandboxBank;
  const giros: Giro[] = [];

  beforeEach(async () => {
    clock = manualClock();
    bank = await startTestSandbox(clock);
  });
  afterEach(async () => {
    for (const giro of giros.splice(0)) await giro.close();
    await bank.close();
  });

  async function replica(databaseUrl: string): Promise<Giro> {
    const giro = await startGiro(await giroOptions(bank, clock, { databaseUrl, sweep: { batchSize: 5 } }));
    giros.push(giro);
    return giro;
  }

  it('send each once, none before its moment, whichever replica releases it', async () => {
    const databaseUrl = await engine.createDatabaseUrl();
    const [a, b] = [await replica(databaseUrl), await replica(databaseUrl)];
    // Less than TAKEOVER_AFTER_SILENCE_MS ahead: the replicas beat on a real-time interval, stamped with this
    // clock, so a jump past it would make both look silent to each other until their next beat, and each could take
    // over the other's leases in the first rounds. That is safe (a movement taken over waits DELAYED's rule from the
    // lease's end, even one given back unworked: the sweep backlog spec), but the test would then wait those holds out.
    const moment = clock.now().getTime() + 5_000;
    const executeAt = new Date(moment).toISOString();
    const originIds: number[] = [];
    for (let i = 0; i < 40; i++) {
      const { movement } = await (i % 2 ? b : a).transfers.requestTransfer({
        ...transferRequest(`payroll ${i}`),
        executeAt,
      });
      originIds.push(movement.originId);
    }
    const other = await a.transfers.requestTransfer({
      ...transferRequest('urgent', { from: OTHER_ACCOUNT as { address: string; personId: string } }),
      executeAt,
    });

    clock.set(moment - 1);
    const early = await Promise.all([a.reconcile.sweep(), b.reconcile.sweep()]);
    expect(early.map((report) => report.released + report.sent)).toEqual([0, 0]);
    expect(bank.ledger.size).toBe(0);

    clock.set(moment);
    const released = { a: 0, b: 0 };
    for (let round = 0; round < 1000; round++) {
      const counts = await a.store.countByStatus();
      if (counts.SCHEDULED + counts.PENDING + counts.CREATED + counts.IN_PROGRESS + counts.DELAYED === 0) break;
      clock.advance(25);
      const [fromA, fromB] = await Promise.all([a.reconcile.sweep(), b.reconcile.sweep()]);
      released.a += fromA.released;
      released.b += fromB.released;
    }

    expect(released.a + released.b).toBe(41);
    expect(released.a).toBeGreaterThan(0); // both really took part
    expect(released.b).toBeGreaterThan(0);
    const entries = bank.ledger.page({ limit: 1000 }).entries;
    expect(entries.map((entry) => entry.originId).sort()).toEqual([...originIds, other.movement.originId].sort());
    for (const entry of entries) expect(Date.parse(entry.createdAt)).toBeGreaterThanOrEqual(moment);
    expect(bank.counters()).toMatchObject({ processedTwice: 0, pollsTooEarly: 0 });

    const movements = await allMovements(a.movements);
    expect(movements.every((m) => m.status === 'COMPLETED' || m.status === 'FAILED')).toBe(true);
    for (const movement of movements) {
      expectNoRepeatedTransition(movement);
      expect(movement.history.filter((row) => row.source === 'release')).toHaveLength(1);
    }
    await expectBankSawTheContract(bank, a.movements);
  }, 120_000); // two module instances and a bank in one process: over 30 s on a loaded machine
});
