import type { SandboxBank } from '@giro/sandbox-bank';
import {
  dataSourceOptionsFromUrl,
  isFinalStatus,
  systemClock,
  type TransferModuleOptions,
} from '@giro/transfer-module';
import { MovementStore } from '@giro/transfer-module/persistence';
import { DataSource } from 'typeorm';
import { expectBankSawTheContract } from './support/contract-checks';
import { describeOnEachEngine } from './support/engines';
import {
  type Giro,
  POLLING,
  sandboxBankOptions,
  startGiro,
  startTestSandbox,
  transferRequest,
} from './support/giro-harness';
import { TcpProxy } from './support/tcp-proxy';
import { assertFreshBuild, startTransferChild, type TransferChild } from './support/transfer-child';

// The contract's failure windows (rules 2 and 3 in ARCHITECTURE.md) with a real process killed with SIGKILL (no
// test hooks in giro): a TCP proxy between the child and the sandbox holds the request, or lets it through and
// holds the answer, and the child is killed while held. A restarted giro must then finish the transfer with the
// same originId, once, losing nothing. Real time here (the child has its own clock): the waits are the lease, a few
// seconds.

/** Bank call timeouts of the child: the longest call is 4 s, so its lease must exceed 4.1 s. */
const TIMEOUTS = { connectMs: 1_000, headersMs: 2_000, bodyMs: 1_000 } as const;
const LEASE_MS = 4_500;

describeOnEachEngine('crash windows: a child process killed with SIGKILL', (engine) => {
  let bank: SandboxBank;
  let proxy: TcpProxy | undefined;
  let child: TransferChild | undefined;
  let giro: Giro | undefined;

  beforeAll(assertFreshBuild);
  beforeEach(async () => {
    bank = await startTestSandbox(systemClock);
  });
  afterEach(async () => {
    child?.process.kill('SIGKILL');
    await giro?.close();
    await proxy?.close();
    await bank.close();
    giro = undefined;
    child = undefined;
  });

  async function options(databaseUrl: string, baseUrl: string): Promise<TransferModuleOptions> {
    return {
      bank: await sandboxBankOptions(baseUrl, { timeouts: TIMEOUTS }),
      databaseUrl,
      runMigrations: true,
      polling: { ...POLLING, maxJitterMs: 20, maxBackoffMs: 800, allowBelowSpec: true },
      sweep: { leaseMs: LEASE_MS },
    };
  }

  /** Runs the child through the proxy and kills it as soon as the proxy holds something. */
  async function killWhileHeld(databaseUrl: string) {
    const proxied = proxy as TcpProxy;
    child = startTransferChild(await options(databaseUrl, proxied.url), transferRequest('rent'));
    const exitedEarly = child.exited.then(() => {
      throw new Error(`the child exited before the proxy held anything: ${child?.stderr()}`);
    });
    await Promise.race([proxied.held, exitedEarly]);
    child.process.kill('SIGKILL');
    expect(await child.exited).toEqual({ code: null, signal: 'SIGKILL' });
    expect(child.events.map((e) => e.event)).toEqual(['ready']); // it never learnt the outcome
  }

  /** What the dead process left in the database. */
  async function storedAfterCrash(databaseUrl: string) {
    const dataSource = await new DataSource(dataSourceOptionsFromUrl(databaseUrl)).initialize();
    try {
      return (await new MovementStore(dataSource, systemClock).list({ limit: 10 })).items;
    } finally {
      await dataSource.destroy();
    }
  }

  /** A restarted giro (here, in the test process), sweeping in real time until everything is final. */
  async function restartAndSettle(databaseUrl: string): Promise<Giro> {
    const restarted = await startGiro({ ...(await options(databaseUrl, bank.url)), clock: systemClock });
    giro = restarted;
    const deadline = Date.now() + 20_000;
    for (;;) {
      const counts = await restarted.store.countByStatus();
      if (Object.entries(counts).every(([status, count]) => count === 0 || isFinalStatus(status))) return restarted;
      if (Date.now() > deadline) throw new Error(`not final in time: ${JSON.stringify(counts)}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
      await restarted.reconcile.sweep();
    }
  }

  it('(a) intent committed, request never reached the bank: the same originId is sent after the restart', async () => {
    const databaseUrl = await engine.createDatabaseUrl();
    proxy = await TcpProxy.start(bank.url, { holdClientData: () => true });
    await killWhileHeld(databaseUrl);

    const [left] = await storedAfterCrash(databaseUrl);
    expect(left).toMatchObject({ status: 'PENDING', attempts: 1, leaseOwner: expect.any(String) }); // durable first
    expect(bank.ledger.size).toBe(0);

    const restarted = await restartAndSettle(databaseUrl);

    const movements = (await restarted.movements.listMovements({}, { limit: 10 })).items;
    expect(movements.map((m) => [m.originId, m.status])).toEqual([[left.originId, 'COMPLETED']]);
    expect(movements[0].history.map((h) => `${h.to}:${h.source}`)).toContain('CREATED:resend');
    expect(bank.counters().requests['get-movement']).toMatchObject({ 'not-found': 1 }); // looked up before re-sending
    expect(bank.ledger.page().entries.map((e) => e.originId)).toEqual([left.originId]);
    await expectBankSawTheContract(bank, restarted.movements);
  });

  it('(b) request processed by the bank, answer never recorded: it is looked up after the restart, not re-sent', async () => {
    const databaseUrl = await engine.createDatabaseUrl();
    // The answer is held as soon as the bank has processed the request.
    proxy = await TcpProxy.start(bank.url, { holdServerData: () => bank.ledger.size > 0 });
    await killWhileHeld(databaseUrl);

    const [left] = await storedAfterCrash(databaseUrl);
    expect(left).toMatchObject({ status: 'PENDING', attempts: 1, lastAnswerAt: null });
    expect(bank.ledger.entry(left.originId)).toMatchObject({ creationAnswer: 'delivered', duplicateRequests: 0 });

    const restarted = await restartAndSettle(databaseUrl);

    const movements = (await restarted.movements.listMovements({}, { limit: 10 })).items;
    expect(movements.map((m) => [m.originId, m.status])).toEqual([[left.originId, 'COMPLETED']]);
    expect(movements[0].history.map((h) => h.source)).not.toContain('resend');
    expect(bank.ledger.entry(left.originId)?.duplicateRequests).toBe(0);
    expect(bank.counters()).toMatchObject({ processed: 1 });
    await expectBankSawTheContract(bank, restarted.movements);
  });
});
