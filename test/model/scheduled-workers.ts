import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SandboxBank } from '@giro/sandbox-bank';
import {
  BankLookupService,
  CancellationService,
  MovementService,
  SweepService,
  TransferModule,
  TransferOverviewService,
  type TransferRequestWire,
  TransferService,
} from '@giro/transfer-module';
import { BankClient, type BankMovement, type CreateTransferResult } from '@giro/transfer-module/bank';
import { MovementStore } from '@giro/transfer-module/persistence';
import { type ManualClock } from '@giro/transfer-module/testing';
import { Test } from '@nestjs/testing';
import { type Giro, giroOptions } from '@test-support/giro-harness';
import type fc from 'fast-check';

// Two giro workers (two Nest applications, two lease owners) on one SQLite file, whose bank calls go through
// a fast-check scheduler: each request leaves, and each answer comes back, only when the scheduler says so.
// That lets a property explore the orders in which concurrent sweeps, requests and refreshes interleave.

/** The bank client with a scheduler gate before each request leaves and before its answer is delivered. */
class ScheduledBank {
  scheduler: fc.Scheduler | undefined;

  constructor(
    private readonly real: BankClient,
    private readonly worker: string,
  ) {}

  createTransferRequest(request: TransferRequestWire): Promise<CreateTransferResult> {
    return this.gated(`${this.worker} sends ${request.originId}`, () => this.real.createTransferRequest(request));
  }

  getMovement(lookup: { originId: number }): Promise<BankMovement> {
    return this.gated(`${this.worker} asks about ${lookup.originId}`, () => this.real.getMovement(lookup));
  }

  close(): Promise<void> {
    return this.real.close();
  }

  private async gated<T>(label: string, call: () => Promise<T>): Promise<T> {
    const scheduler = this.scheduler;
    if (scheduler === undefined) return call();
    await scheduler.schedule(Promise.resolve(), `${label}: request`);
    const settled = await call().then(
      (value) => ({ ok: true as const, value }),
      (error: unknown) => ({ ok: false as const, error }),
    );
    await scheduler.schedule(Promise.resolve(), `${label}: answer`);
    if (settled.ok) return settled.value;
    throw settled.error;
  }
}

export type Worker = Omit<Giro, 'app' | 'close'>;

export interface ScheduledWorkers {
  a: Worker;
  b: Worker;
  /** From now on every bank call of both workers waits for `scheduler` (undefined: calls go straight through). */
  schedule(scheduler: fc.Scheduler | undefined): void;
  close(): Promise<void>;
}

export async function startScheduledWorkers(bank: SandboxBank, clock: ManualClock): Promise<ScheduledWorkers> {
  const dir = mkdtempSync(join(tmpdir(), 'giro-interleavings-'));
  const options = await giroOptions(bank, clock, { databaseUrl: `sqlite:${join(dir, 'giro.sqlite')}` });
  const banks: ScheduledBank[] = [];
  const start = async (name: string) => {
    const scheduled = new ScheduledBank(new BankClient({ ...options.bank, clock }), name);
    banks.push(scheduled);
    const moduleRef = await Test.createTestingModule({
      imports: [TransferModule.forRoot({ runMigrations: true, ...options })],
    })
      .overrideProvider(BankClient)
      .useValue(scheduled)
      .compile();
    return moduleRef.init();
  };
  const appA = await start('A');
  const appB = await start('B');
  const worker = (app: typeof appA): Worker => ({
    transfers: app.get(TransferService),
    movements: app.get(MovementService),
    bankLookups: app.get(BankLookupService),
    cancellations: app.get(CancellationService),
    overview: app.get(TransferOverviewService),
    reconcile: app.get(SweepService),
    store: app.get(MovementStore),
  });
  return {
    a: worker(appA),
    b: worker(appB),
    schedule(scheduler) {
      for (const scheduled of banks) scheduled.scheduler = scheduler;
    },
    async close() {
      await appA.close();
      await appB.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * A scheduler act (for `waitFor`) that lets one turn of the event loop pass after the steps `turns` marks,
 * the pattern repeated over the steps. Why: giro's SQLite transactions wait for the end of the turn and then
 * run as one group (group commit, setImmediate), while the scheduler releases its steps on microtasks alone.
 * Without turns between steps every operation started in a row queues into the same groups, and the order of
 * the starts no longer decides which transaction comes first (a refresh, which reads before it claims,
 * then always lost its movement to a sweep). With a turn after a step, that step's transactions run before
 * the next step is released.
 */
export function turnsBetweenSteps(turns: readonly boolean[], onTurn: () => void): fc.SchedulerAct {
  let step = 0;
  return async (release) => {
    await release();
    const turn = turns[step % turns.length];
    step += 1;
    if (!turn) return;
    onTurn();
    await new Promise<void>((resolve) => setImmediate(resolve));
  };
}
