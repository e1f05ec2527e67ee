import type { SandboxBank } from '@giro/sandbox-bank';
import { giroOptions, manualClock, startTestSandbox, transferRequest } from '@test-support/giro-harness';
import { BankClient } from '../bank';
import type { ManualClock, TransferRequestWire } from '../domain';
import type { BankPort } from '../movement';
import { type SenderFixture, senderFixture } from '../movement/testing/sender-fixture';
import { resolveTransferModuleOptions, type TransferModuleOptions } from '../options';
import { sampleIntent } from '../persistence/testing/sample-intent';
import { describeEachEngine, type TestEngine } from '../persistence/testing/test-engines';
import { TransferService } from '../transfer';
import { SweepService } from './sweep.service';

/**
 * The bank client, with every call recorded (kind, order, concurrency). A test may make calls wait for each other
 * (together) or hold their answers (holdAnswers), so that what it checks does not depend on the machine's pace.
 */
class RecordingBank implements BankPort {
  readonly calls: string[] = [];
  inFlight = 0;
  peak = 0;
  private waiting: (() => void)[] = [];
  private toWaitFor = 0;
  private answersHeld: Promise<void> | undefined;
  constructor(private readonly client: BankClient) {}

  /** The next `count` calls wait for each other before they go to the bank: that many are in flight together. */
  together(count: number): void {
    this.toWaitFor = count;
  }

  /** The bank's answers wait (each call processed, not yet answered) until the returned function is called. */
  holdAnswers(): () => void {
    let release!: () => void;
    this.answersHeld = new Promise<void>((resolve) => {
      release = resolve;
    });
    return () => {
      this.answersHeld = undefined;
      release();
    };
  }

  createTransferRequest(request: TransferRequestWire) {
    return this.record(`create ${request.originId}`, () => this.client.createTransferRequest(request));
  }

  getMovement(lookup: { originId: number }) {
    return this.record(`query ${lookup.originId}`, () => this.client.getMovement(lookup));
  }

  private async record<T>(call: string, work: () => Promise<T>): Promise<T> {
    this.calls.push(call);
    this.inFlight += 1;
    this.peak = Math.max(this.peak, this.inFlight);
    try {
      if (this.toWaitFor > 0) await this.joinTheOthers();
      const answer = await work();
      await this.answersHeld;
      return answer;
    } finally {
      this.inFlight -= 1;
    }
  }

  private joinTheOthers(): Promise<void> {
    return new Promise<void>((resolve) => {
      this.waiting.push(resolve);
      if (this.waiting.length < this.toWaitFor) return;
      this.toWaitFor = 0;
      for (const go of this.waiting.splice(0)) go();
    });
  }
}

/** Waits (bounded generously: the database works meanwhile, on a machine that may be loaded) until `condition`. */
async function until(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`not within 20 s: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describeEachEngine('SweepService.sweep', (engine: TestEngine) => {
  let bank: SandboxBank;
  let clock: ManualClock;
  const clients: BankClient[] = [];

  beforeEach(async () => {
    clock = manualClock();
    bank = await startTestSandbox(clock);
  });
  afterEach(async () => {
    for (const client of clients.splice(0)) await client.close();
    await bank.close();
  });

  async function setup(overrides: Partial<TransferModuleOptions> = {}) {
    const dataSource = await (await engine.createDatabase()).connectMigrated();
    const options = resolveTransferModuleOptions(await giroOptions(bank, clock, overrides));
    const client = new BankClient(options.bank);
    clients.push(client);
    const recording = new RecordingBank(client);
    const fixture = senderFixture(options, dataSource, recording);
    const { store, sender, schedule, work, owner, logger, events } = fixture;
    return {
      fixture,
      bank: recording,
      sweeper: new SweepService(options, store, sender, schedule, work, owner, logger, events),
      transfers: new TransferService(options, store, sender, work),
    };
  }

  /** Intents stored without a send, as a crash right after the commit leaves them (attempts 0: never sent). */
  async function unsent(fixture: SenderFixture, ...originIds: number[]) {
    for (const originId of originIds) {
      const { intent, fingerprint } = sampleIntent(originId);
      await fixture.store.recordIntent(intent, fingerprint, { sendNow: false });
    }
  }

  it('claims in batches, serves creations first, and works through every due movement in one sweep', async () => {
    const { fixture, bank: calls, sweeper, transfers } = await setup({ sweep: { batchSize: 2, concurrency: 1 } });
    const created = [];
    for (let i = 0; i < 2; i++)
      created.push((await transfers.requestTransfer(transferRequest('rent'))).movement.originId);
    await unsent(fixture, 11, 12, 13);
    clock.advance(200);
    calls.calls.length = 0;

    const report = await sweeper.sweep();
    expect(report).toMatchObject({ claimed: 5, sent: 3, queried: 2, changed: 5, errors: 0 });
    expect(calls.calls.slice(0, 3)).toEqual(['create 11', 'create 12', 'create 13']);
    expect(calls.calls.slice(3).sort()).toEqual(created.map((originId) => `query ${originId}`).sort());
    expect(await fixture.store.countByStatus()).toMatchObject({ PENDING: 0, CREATED: 3, IN_PROGRESS: 2 });
    expect((await sweeper.sweep()).claimed).toBe(0); // nothing due until the next polling interval
  });

  it('bounds the work in flight by the sweep concurrency and by the shared budget', async () => {
    bank.configure({ faults: { latencyMs: 50 } }); // calls last long enough to overlap
    const wide = await setup({ sweep: { concurrency: 3 } });
    await unsent(wide.fixture, 1, 2, 3, 4, 5, 6, 7);
    // The first three meet before going to the bank: a slow write before each call cannot keep them apart.
    wide.bank.together(3);
    await wide.sweeper.sweep();
    expect(wide.bank.calls).toHaveLength(7);
    expect(wide.bank.peak).toBe(3);

    const narrow = await setup({ sweep: { concurrency: 5 }, budget: { maxInFlight: 1 } });
    await unsent(narrow.fixture, 21, 22, 23, 24);
    await narrow.sweeper.sweep();
    expect(narrow.bank.calls).toHaveLength(4);
    expect(narrow.bank.peak).toBe(1);
  });

  it('goes on when one movement’s work fails, and gives that movement back', async () => {
    const { fixture, sweeper } = await setup();
    await unsent(fixture, 1, 2, 3);
    const applyUpdate = fixture.store.applyUpdate.bind(fixture.store);
    let failed = false;
    jest.spyOn(fixture.store, 'applyUpdate').mockImplementation((originId, owner, update) => {
      if (originId !== 2 || failed) return applyUpdate(originId, owner, update);
      failed = true;
      return Promise.reject(new Error('disk full'));
    });

    const report = await sweeper.sweep();
    expect(report).toMatchObject({ claimed: 3, sent: 3, changed: 2, errors: 1 });
    expect(await fixture.store.findByOriginId(1)).toMatchObject({ status: 'CREATED', leaseOwner: null });
    expect(await fixture.store.findByOriginId(3)).toMatchObject({ status: 'CREATED', leaseOwner: null });
    // Sent, answer not recorded: PENDING with the send counted, free for a later sweep to look it up, once the
    // polling rule allows whatever the bank answered (DELAYED's, the longest), not at the next sweep.
    expect(await fixture.store.findByOriginId(2)).toMatchObject({
      status: 'PENDING',
      attempts: 1,
      leaseOwner: null,
      nextQueryAt: fixture.schedule.policy.earliestQueryAt('DELAYED', clock.now()),
    });
  });

  it('keeps the lease of a movement whose work met the database out, and says the outage once', async () => {
    const { fixture, sweeper } = await setup();
    await unsent(fixture, 1, 2, 3);
    // The fixture's silent logger is shared by every test: its spies are cleared of earlier tests' calls.
    const warn = jest.spyOn(fixture.logger, 'warn');
    const error = jest.spyOn(fixture.logger, 'error');
    warn.mockClear();
    error.mockClear();
    const applyUpdate = fixture.store.applyUpdate.bind(fixture.store);
    // The connection of these two movements' writes was terminated (SQLSTATE 57P01); the pool served the rest.
    const terminated = () =>
      Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' });
    jest
      .spyOn(fixture.store, 'applyUpdate')
      .mockImplementation((originId, owner, update) =>
        originId === 1 ? applyUpdate(originId, owner, update) : Promise.reject(terminated()),
      );

    const report = await sweeper.sweep();
    expect(report).toMatchObject({ claimed: 3, sent: 3, changed: 1, errors: 2 });
    // Sent, answer not recorded: the lease is kept until it expires, so nobody asks the bank again too soon.
    for (const originId of [2, 3]) {
      expect(await fixture.store.findByOriginId(originId)).toMatchObject({
        status: 'PENDING',
        leaseOwner: fixture.owner,
      });
    }
    expect(error).not.toHaveBeenCalled();
    expect(warn.mock.calls.filter(([line]) => /database is unavailable/.test(String(line)))).toHaveLength(1);
  });

  it('starts no bank call when too little of the lease is left, and gives the movement back', async () => {
    const { fixture, bank: calls } = await setup();
    await unsent(fixture, 1);
    const claimed = await fixture.store.claim(1, fixture.owner, fixture.options.callGuardMs - 1);
    const step = await fixture.sender.followUp(claimed as NonNullable<typeof claimed>, 'query', 0);
    expect(step).toMatchObject({ sent: 0, queried: 0, changedTo: null });
    expect(calls.calls).toEqual([]);
    expect(await fixture.store.findByOriginId(1)).toMatchObject({ status: 'PENDING', attempts: 0, leaseOwner: null });
  });

  it('stretches the next query under a backlog the budget cannot serve within one interval', async () => {
    // 10 calls/s over a 100 ms interval: one query per interval; four due movements → pressure 3.
    const { fixture, sweeper, transfers } = await setup({ budget: { maxInFlight: 4, ratePerSecond: 10 } });
    for (let i = 0; i < 4; i++) await transfers.requestTransfer(transferRequest('rent'));
    clock.advance(200);
    await sweeper.sweep();
    const { items } = await fixture.store.list({ limit: 10 });
    for (const movement of items) {
      const waitMs = (movement.nextQueryAt as Date).getTime() - (movement.lastAnswerAt as Date).getTime();
      expect(waitMs).toBeGreaterThanOrEqual(100 * (1 + 3));
    }
  });

  it('stops: finishes the work in flight, releases its leases, and claims nothing more', async () => {
    const { fixture, sweeper, bank: calls } = await setup({ sweep: { concurrency: 1 } });
    await unsent(fixture, 1, 2, 3);
    const answer = calls.holdAnswers();
    const sweeping = sweeper.sweep();
    await until(() => calls.calls.length === 1, 'the first send under way'); // its answer held until the stop
    const stopping = sweeper.stop();
    answer();
    await stopping;
    const report = await sweeping;
    expect(report).toMatchObject({ claimed: 3, sent: 1 }); // the one in flight finished; no new call started
    const { items } = await fixture.store.list({ limit: 10 });
    expect(items.map((m) => [m.status, m.leaseOwner])).toEqual([
      ['CREATED', null],
      ['PENDING', null],
      ['PENDING', null],
    ]);
    expect((await sweeper.sweep()).claimed).toBe(0);
  });
});
