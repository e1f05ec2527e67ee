import { sandboxBankOptions } from '@test-support/giro-harness';
import { type BankMovement, type CreateTransferResult, parseMovement } from '../bank';
import { movementAnswer } from '../bank/testing/bank-fixtures';
import type { TransferRequestWire } from '../domain';
import type { BankPort } from '../movement';
import { type SenderFixture, senderFixture } from '../movement/testing/sender-fixture';
import { resolveTransferModuleOptions } from '../options';
import { type MovementRecord, MovementUpdateRejectedError } from '../persistence';
import { sampleIntent } from '../persistence/testing/sample-intent';
import { storeFixture, T0 } from '../persistence/testing/store-fixture';
import { describeEachEngine, describeOnPostgres, type TestEngine } from '../persistence/testing/test-engines';
import { SweepService } from './sweep.service';

const MIN_INTERVAL = 100;

function answer(originId: number, status: 'CREATED' | 'IN_PROGRESS'): BankMovement {
  const parsed = parseMovement(movementAnswer(originId, status));
  if (!parsed.ok) throw new Error('fixture answer must parse');
  return parsed.movement;
}

/**
 * A bank the test drives: it counts calls per originId and in flight, and either holds every call until the
 * test answers it (`hold`) or answers on the next turn of the event loop, running `onCall` first.
 */
class ControlledBank implements BankPort {
  readonly callsPer = new Map<number, number>();
  inFlight = 0;
  peak = 0;
  hold = false;
  onCall: () => void = () => undefined;
  private readonly held: (() => void)[] = [];

  createTransferRequest(request: TransferRequestWire): Promise<CreateTransferResult> {
    return this.call(request.originId, () => ({ movement: answer(request.originId, 'CREATED'), duplicate: false }));
  }

  getMovement(lookup: { originId: number }): Promise<BankMovement> {
    return this.call(lookup.originId, () => answer(lookup.originId, 'IN_PROGRESS'));
  }

  get totalCalls(): number {
    return [...this.callsPer.values()].reduce((sum, count) => sum + count, 0);
  }

  /** Calls held, waiting for the test to answer them (what the bank has in flight). */
  get waiting(): number {
    return this.held.length;
  }

  /** Answers the oldest held call. */
  answerOne(): void {
    this.held.shift()?.();
  }

  /** Stops holding and answers every held call. */
  answerAll(): void {
    this.hold = false;
    for (const release of this.held.splice(0)) release();
  }

  private async call<T>(originId: number, result: () => T): Promise<T> {
    this.callsPer.set(originId, (this.callsPer.get(originId) ?? 0) + 1);
    this.inFlight += 1;
    this.peak = Math.max(this.peak, this.inFlight);
    try {
      if (this.hold) await new Promise<void>((resolve) => this.held.push(resolve));
      else await new Promise((resolve) => setImmediate(resolve));
      this.onCall();
      return result();
    } finally {
      this.inFlight -= 1;
    }
  }
}

/**
 * Waits (bounded, in real time: the database works meanwhile, on a machine that may be loaded) until `condition`
 * holds; false on timeout.
 */
async function until(condition: () => boolean, timeoutMs = 20_000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  return true;
}

/** A sweep on a database of `engine` against the controlled bank, every claim's size recorded. */
async function sweepFixture(engine: TestEngine, sweep: { batchSize: number; concurrency: number }) {
  const fixture = await storeFixture(engine);
  const options = resolveTransferModuleOptions({
    bank: await sandboxBankOptions('https://127.0.0.1:9'), // never dialled: the controlled bank answers
    clock: fixture.clock,
    polling: { minIntervalMs: MIN_INTERVAL, maxJitterMs: 0, allowBelowSpec: true },
    budget: { maxInFlight: sweep.concurrency + 4 },
    sweep,
  });
  const bank = new ControlledBank();
  const wired = senderFixture(options, fixture.dataSource, bank);
  /** Every claim's size, in order. */
  const claims: number[] = [];
  const claimDue = wired.store.claimDue.bind(wired.store);
  jest.spyOn(wired.store, 'claimDue').mockImplementation(async (claimOptions) => {
    const claimed = await claimDue(claimOptions);
    claims.push(claimed.length);
    return claimed;
  });
  const { store, sender, schedule, work, owner, logger, events } = wired;
  const sweeper = new SweepService(options, store, sender, schedule, work, owner, logger, events);
  return { fixture, wired, bank, claims, clock: fixture.clock, sweeper };
}

describeEachEngine('SweepService.sweep through a backlog', (engine: TestEngine) => {
  const setup = (sweep: { batchSize: number; concurrency: number }) => sweepFixture(engine, sweep);

  /** Intents stored without a send (attempts 0): a sweep sends each once. */
  async function backlog(wired: SenderFixture, from: number, count: number): Promise<number[]> {
    const originIds = Array.from({ length: count }, (_, index) => from + index);
    for (const originId of originIds) {
      const { intent, fingerprint } = sampleIntent(originId);
      await wired.store.recordIntent(intent, fingerprint, { sendNow: false });
    }
    return originIds;
  }

  async function everyMovement(wired: SenderFixture): Promise<MovementRecord[]> {
    return (await wired.store.list({ limit: 1000 })).items;
  }

  it('works every due movement exactly once, though each is due again before the sweep ends', async () => {
    const { wired, bank, clock, sweeper } = await setup({ batchSize: 5, concurrency: 3 });
    const originIds = await backlog(wired, 1, 40);
    // Each answer moves time on: an answered movement is due again (nextQueryAt ≤ now) three answers later.
    bank.onCall = () => clock.advance(40);

    const report = await sweeper.sweep();

    expect(report).toMatchObject({ claimed: 40, sent: 40, errors: 0 });
    expect([...bank.callsPer.entries()].sort(([a], [b]) => a - b)).toEqual(originIds.map((id) => [id, 1]));
    const movements = await everyMovement(wired);
    expect(movements.map((m) => [m.status, m.leaseOwner])).toEqual(originIds.map(() => ['CREATED', null]));
    const earliest = Math.min(...movements.map((m) => (m.nextQueryAt as Date).getTime()));
    expect(report.nextDueAt).toEqual(new Date(earliest));
    expect(earliest).toBeLessThanOrEqual(clock.now().getTime()); // due again already: the next sweep's work
  });

  it('keeps every slot busy while the backlog lasts, claiming the next batch before the queue runs dry', async () => {
    const concurrency = 4;
    const batchSize = 10;
    const { wired, bank, claims, sweeper } = await setup({ batchSize, concurrency });
    await backlog(wired, 1, 45);
    bank.hold = true;
    let finished = false;
    const sweeping = sweeper.sweep().finally(() => {
      finished = true;
    });
    const lastClaimDone = () => claims.some((size) => size < batchSize);

    // Answer one call at a time, each once every slot holds a call (or the last claim is done): a slot left
    // idle waiting for a batch shows as a wait that times out with fewer calls at the bank.
    const inFlightBeforeLastClaim: number[] = [];
    while (!finished) {
      await until(() => finished || bank.waiting === concurrency || lastClaimDone());
      if (!lastClaimDone()) inFlightBeforeLastClaim.push(bank.waiting);
      if (bank.waiting > 0) bank.answerOne();
      else await new Promise((resolve) => setTimeout(resolve, 1));
    }
    const report = await sweeping;

    expect(report.claimed).toBe(45);
    expect(claims).toEqual([10, 10, 10, 10, 5]);
    expect(bank.totalCalls).toBe(45);
    expect(bank.peak).toBe(concurrency);
    // Between the first and the last claim, every answer left `concurrency` calls in flight.
    expect(inFlightBeforeLastClaim.length).toBeGreaterThan(30);
    expect(Math.min(...inFlightBeforeLastClaim)).toBe(concurrency);
  });

  it('sends in its next batches a creation that became due after the sweep started', async () => {
    const { wired, bank, clock, sweeper } = await setup({ batchSize: 4, concurrency: 2 });
    await backlog(wired, 1, 12);
    bank.hold = true;
    const sweeping = sweeper.sweep();
    expect(await until(() => bank.inFlight === 2)).toBe(true);
    clock.advance(1);
    // Due at the sweep's start + 1 ms (a transfer released or approved while a long sweep runs): not left for the
    // next sweep, which would start only once this one has drained its whole backlog.
    const late = await backlog(wired, 101, 5);
    bank.answerAll();
    const report = await sweeping;

    expect(report.claimed).toBe(17);
    for (const originId of late) expect(bank.callsPer.get(originId)).toBe(1);
  });

  it('ends when a movement keeps failing, working it only once', async () => {
    const { wired, bank, sweeper } = await setup({ batchSize: 2, concurrency: 2 });
    await backlog(wired, 1, 7);
    const applyUpdate = wired.store.applyUpdate.bind(wired.store);
    jest
      .spyOn(wired.store, 'applyUpdate')
      .mockImplementation((originId, owner, update) =>
        originId === 3 ? Promise.reject(new Error('disk full')) : applyUpdate(originId, owner, update),
      );

    const report = await sweeper.sweep();

    expect(report).toMatchObject({ claimed: 7, errors: 1 });
    expect(bank.callsPer.get(3)).toBe(1);
    expect(bank.totalCalls).toBe(7);
    const stuck = await wired.store.findByOriginId(3);
    // Sent, and nothing about it could be written (its hold neither): it keeps its lease, as after a database
    // outage, and is asked again only after the lease's end and DELAYED's rule, never at the next sweep.
    expect(stuck).toMatchObject({ status: 'PENDING', attempts: 1, leaseOwner: wired.owner, nextQueryAt: new Date(T0) });
    expect(report.nextDueAt).toEqual(new Date(T0 + MIN_INTERVAL)); // the others' next queries
  });

  it('stops mid-sweep: no new bank call, no lease left, a claim under way included', async () => {
    const { wired, bank, claims, sweeper } = await setup({ batchSize: 4, concurrency: 2 });
    await backlog(wired, 1, 12);
    // The second claim waits at a gate, so it is under way when stop() comes.
    let openGate!: () => void;
    const gate = new Promise<void>((resolve) => {
      openGate = resolve;
    });
    const claimDue = jest.mocked(wired.store.claimDue).getMockImplementation() as typeof wired.store.claimDue;
    jest.spyOn(wired.store, 'claimDue').mockImplementation(async (claimOptions) => {
      if (claims.length === 1) await gate;
      return claimDue(claimOptions);
    });
    let sweepEnded = false;
    bank.hold = true;
    const sweeping = sweeper.sweep().finally(() => {
      sweepEnded = true;
    });
    expect(await until(() => bank.inFlight === 2)).toBe(true);
    bank.answerOne(); // its worker takes the third movement; the queue runs low: the second claim starts
    expect(await until(() => bank.totalCalls === 3 && bank.waiting === 2)).toBe(true);

    const stopping = sweeper.stop();
    bank.answerAll();
    expect(await until(() => bank.inFlight === 0)).toBe(true);
    // The workers are done, but the claim under way still leases what it finds: the sweep waits for it, so
    // that stop() releases those leases after it.
    expect(await until(() => sweepEnded, 200)).toBe(false);
    openGate();
    await stopping;
    const report = await sweeping;

    expect(claims).toEqual([4, 4]);
    expect(report.claimed).toBe(8);
    expect(bank.totalCalls).toBe(3);
    const movements = await everyMovement(wired);
    expect(movements.filter((m) => m.leaseOwner !== null)).toEqual([]);
    expect(movements.filter((m) => m.status === 'CREATED')).toHaveLength(3);
    expect((await sweeper.sweep()).claimed).toBe(0);
  });
});

describeOnPostgres('SweepService.sweep taking a lease over from a replica that looks silent', (engine: TestEngine) => {
  it('gives back held a movement it worked and then claimed again from that replica, never due at once', async () => {
    // Two live replicas can each look silent to the other (a stall longer than the takeover's silence): each may
    // then take over the other's leases while the other is still calling the bank.
    const { fixture, wired, bank, claims, sweeper } = await sweepFixture(engine, { batchSize: 1, concurrency: 1 });
    const { store, owner, options, schedule } = wired;
    const { clock, dataSource } = fixture;
    /** Heartbeats as they would stand: `beating` without a gap for 20 s, `silent` not for 20 s. */
    const heartbeats = async (beating: string, silent: string) => {
      const now = clock.now().getTime();
      const write = `INSERT INTO "giro_replicas" ("owner", "started_at_ms", "heartbeat_at_ms", "beating_since_ms")
        VALUES ($1, $2, $3, $4) ON CONFLICT ("owner") DO UPDATE
        SET "heartbeat_at_ms" = excluded."heartbeat_at_ms", "beating_since_ms" = excluded."beating_since_ms"`;
      await dataSource.query(write, [beating, now - 20_000, now, now - 20_000]);
      await dataSource.query(write, [silent, now - 20_000, now - 20_000, now - 20_000]);
    };
    for (const originId of [1, 2]) {
      const { intent, fingerprint } = sampleIntent(originId);
      await store.recordIntent(intent, fingerprint, { sendNow: false });
    }
    await heartbeats(owner, 'stalled');
    bank.hold = true;
    const sweeping = sweeper.sweep();
    // The sweep has sent its first movement (the answer held) and claimed the second.
    expect(await until(() => bank.waiting === 1 && claims.length === 2)).toBe(true);
    const [first] = [...bank.callsPer.keys()] as [number];

    // The sweep's replica looks silent to the other, which takes the first movement over; then the other way round.
    await heartbeats('stalled', owner);
    expect(await store.claim(first, 'stalled', options.sweep.leaseMs)).not.toBeNull();
    const stalledLeaseEnds = clock.now().getTime() + options.sweep.leaseMs;
    await heartbeats(owner, 'stalled');
    // The bank's answer about it cannot be written (the lease is the other's): left due, then claimed again from
    // the silent replica by the sweep's next claim, and given back unworked.
    bank.answerAll();
    await sweeping;

    expect(bank.callsPer.get(first)).toBe(1);
    const given = await store.findByOriginId(first);
    // Held as after any takeover (DELAYED's rule from the other's lease's end): a bare release would have left it
    // due, asked again at the next sweep right after the bank's answer.
    const held = schedule.policy.earliestQueryAt('DELAYED', new Date(stalledLeaseEnds));
    expect(given).toMatchObject({ status: 'PENDING', attempts: 1, leaseOwner: null, nextQueryAt: held });
  });

  it('gives back held a movement it took over whose follow-up failed', async () => {
    const { fixture, wired, sweeper } = await sweepFixture(engine, { batchSize: 5, concurrency: 1 });
    const { store, owner, options, schedule } = wired;
    const { clock, dataSource } = fixture;
    const { intent, fingerprint } = sampleIntent(7);
    await store.recordIntent(intent, fingerprint, { sendNow: false });
    // Another replica claimed it and counted its send; it has gone silent since, its lease running.
    expect(await store.claim(7, 'stalled', options.sweep.leaseMs)).not.toBeNull();
    expect(await store.markSendAttempt(7, 'stalled')).toBe(true);
    const stalledLeaseEnds = clock.now().getTime() + options.sweep.leaseMs;
    const now = clock.now().getTime();
    const write = `INSERT INTO "giro_replicas" ("owner", "started_at_ms", "heartbeat_at_ms", "beating_since_ms")
      VALUES ($1, $2, $3, $2)`;
    await dataSource.query(write, [owner, now - 20_000, now]);
    await dataSource.query(write, ['stalled', now - 20_000, now - 20_000]);
    // The sweep takes it over; its first write fails (as when the lease changed hands again meanwhile).
    const applyUpdate = store.applyUpdate.bind(store);
    let failed = false;
    jest.spyOn(store, 'applyUpdate').mockImplementation((originId, by, update) => {
      if (failed) return applyUpdate(originId, by, update);
      failed = true;
      return Promise.reject(new MovementUpdateRejectedError(originId, 'the movement changed during the update'));
    });

    expect(await sweeper.sweep()).toMatchObject({ claimed: 1, errors: 1, sent: 0, queried: 0 });

    // Held as after any takeover, not released due at once: the silent replica may have had the bank's answer.
    const held = schedule.policy.earliestQueryAt('DELAYED', new Date(stalledLeaseEnds));
    expect(await store.findByOriginId(7)).toMatchObject({ leaseOwner: null, nextQueryAt: held });
  });
});
