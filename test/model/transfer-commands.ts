import type { SandboxBank, SandboxConfigPatch } from '@giro/sandbox-bank';
import { PollTooSoonError, TransferConflictError } from '@giro/transfer-module';
import { transferRequest } from '@test-support/giro-harness';
import fc from 'fast-check';
import {
  checkContract,
  MODEL_SCENARIOS,
  type ModelIntent,
  type ModelScenario,
  type Real,
  type TransferModel,
} from './model-world';

// The commands of the model-based suite: what a host and an operator do to giro (request, replay, conflict,
// refresh, sweep), time passing, and the bank changing how it misbehaves. Each command checks its own
// promise, then the whole contract (checkContract).

type TransferCommand = fc.AsyncCommand<TransferModel, Real>;

/** How many commands of each kind ran, over every run of the suite (for its closing line). */
export const commandCounts: Record<string, number> = {};

const counted = (name: string) => {
  commandCounts[name] = (commandCounts[name] ?? 0) + 1;
};

function amountOf(cents: number): string {
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
}

/** Requests to the bank's two endpoints so far (answered or not). */
function bankRequests(bank: SandboxBank): number {
  const { requests } = bank.counters();
  const total = (endpoint: string) => Object.values(requests[endpoint] ?? {}).reduce((sum, n) => sum + n, 0);
  return total('transfer-request') + total('get-movement');
}

function pick(model: TransferModel, index: number): ModelIntent {
  const intents = [...model.intents.values()];
  return intents[index % intents.length] as ModelIntent;
}

class RequestTransfer implements TransferCommand {
  constructor(
    private readonly scenario: ModelScenario,
    private readonly cents: number,
    private readonly hostOriginId: boolean,
  ) {}

  check = () => true;

  async run(model: TransferModel, real: Real): Promise<void> {
    counted('request');
    const originId = this.hostOriginId ? model.nextHostOriginId++ : undefined;
    const request = transferRequest(`model${MODEL_SCENARIOS[this.scenario].tags}`, {
      amount: amountOf(this.cents),
      ...(originId !== undefined && { originId }),
    });
    const { movement, created } = await real.giro.transfers.requestTransfer(request);
    expect(created).toBe(true);
    if (originId !== undefined) expect(movement.originId).toBe(originId);
    else {
      // Allocated originIds only move forward.
      expect(movement.originId).toBeGreaterThan(model.lastAllocated);
      model.lastAllocated = movement.originId;
    }
    model.intents.set(movement.originId, {
      originId: movement.originId,
      scenario: this.scenario,
      request: { ...request, originId: movement.originId },
    });
    await checkContract(model, real);
  }

  toString = () => `request(${this.scenario}, ${amountOf(this.cents)}${this.hostOriginId ? ', host originId' : ''})`;
}

/** The host sends the same request again (it never learned the answer): the stored movement, nothing sent. */
class ReplayTransfer implements TransferCommand {
  constructor(private readonly index: number) {}

  check = (model: Readonly<TransferModel>) => model.intents.size > 0;

  async run(model: TransferModel, real: Real): Promise<void> {
    counted('replay');
    const intent = pick(model, this.index);
    const before = bankRequests(real.bank);
    const { movement, created } = await real.giro.transfers.requestTransfer(intent.request);
    expect(created).toBe(false);
    expect(movement).toEqual(await real.giro.movements.getMovement(intent.originId));
    expect(bankRequests(real.bank)).toBe(before);
    await checkContract(model, real);
  }

  toString = () => `replay(#${this.index})`;
}

/** The same originId with another payload: refused, nothing changed, nothing sent. */
class ConflictingTransfer implements TransferCommand {
  constructor(private readonly index: number) {}

  check = (model: Readonly<TransferModel>) => model.intents.size > 0;

  async run(model: TransferModel, real: Real): Promise<void> {
    counted('conflict');
    const intent = pick(model, this.index);
    const stored = await real.giro.movements.getMovement(intent.originId);
    const before = bankRequests(real.bank);
    const body = intent.request.body as Record<string, unknown>;
    const other = { ...intent.request, body: { ...body, description: `${String(body.description)} (changed)` } };
    await expect(real.giro.transfers.requestTransfer(other)).rejects.toBeInstanceOf(TransferConflictError);
    expect(await real.giro.movements.getMovement(intent.originId)).toEqual(stored);
    expect(bankRequests(real.bank)).toBe(before);
    await checkContract(model, real);
  }

  toString = () => `conflict(#${this.index})`;
}

/** An operator asks for a refresh: done, or refused because the polling rule does not allow it yet. */
class RefreshMovement implements TransferCommand {
  constructor(private readonly index: number) {}

  check = (model: Readonly<TransferModel>) => model.intents.size > 0;

  async run(model: TransferModel, real: Real): Promise<void> {
    counted('refresh');
    const intent = pick(model, this.index);
    try {
      await real.giro.bankLookups.refreshMovement(intent.originId);
    } catch (error) {
      // Anything else fails the run: MovementBusyError included, since nobody else holds a lease in a
      // sequential run (it would be a leaked lease).
      if (!(error instanceof PollTooSoonError)) throw error;
      expect(error.retryAt.getTime()).toBeGreaterThan(real.clock.now().getTime());
    }
    await checkContract(model, real);
  }

  toString = () => `refresh(#${this.index})`;
}

class Sweep implements TransferCommand {
  check = () => true;

  async run(model: TransferModel, real: Real): Promise<void> {
    counted('sweep');
    const report = await real.giro.reconcile.sweep();
    expect(report.claimed).toBeGreaterThanOrEqual(report.changed);
    await checkContract(model, real);
  }

  toString = () => 'sweep';
}

class AdvanceClock implements TransferCommand {
  constructor(private readonly ms: number) {}

  check = () => true;

  async run(model: TransferModel, real: Real): Promise<void> {
    counted('clock');
    real.clock.advance(this.ms);
    await checkContract(model, real);
  }

  toString = () => `advance(${this.ms} ms)`;
}

const NO_FAULTS = {
  serverErrorRate: 0,
  rateLimitRate: 0,
  resetBeforeRate: 0,
  resetAfterRate: 0,
  malformedRate: 0,
  hangRate: 0,
};

/** How the bank misbehaves from now on. */
export const BANK_BEHAVIOURS = {
  healthy: { faults: NO_FAULTS, registrationLagMs: 0, duplicateMode: 'return-existing' },
  /** Refusals that certainly did not process the request: 5xx, 429, connection reset before reading it. */
  refusing: {
    faults: { ...NO_FAULTS, serverErrorRate: 0.2, rateLimitRate: 0.15, resetBeforeRate: 0.15 },
    registrationLagMs: 0,
    duplicateMode: 'return-existing',
  },
  /** Processed, but the answer is lost or spoiled, or never comes; the bank registers late and answers 409. */
  ambiguous: {
    faults: { ...NO_FAULTS, resetAfterRate: 0.2, malformedRate: 0.2, hangRate: 0.05 },
    registrationLagMs: 300,
    duplicateMode: 'conflict',
  },
} as const satisfies Record<string, SandboxConfigPatch>;

class ChangeBankBehaviour implements TransferCommand {
  constructor(private readonly behaviour: keyof typeof BANK_BEHAVIOURS) {}

  check = () => true;

  async run(model: TransferModel, real: Real): Promise<void> {
    counted('bank');
    real.bank.configure(BANK_BEHAVIOURS[this.behaviour]);
    await checkContract(model, real);
  }

  toString = () => `bank(${this.behaviour})`;
}

const index = fc.nat({ max: 1_000 });

export const transferCommands: fc.Arbitrary<TransferCommand>[] = [
  fc
    .tuple(
      fc.constantFrom(...(Object.keys(MODEL_SCENARIOS) as ModelScenario[])),
      fc.integer({ min: 1, max: 99_999_999 }),
      fc.boolean(),
    )
    .map(([scenario, cents, host]) => new RequestTransfer(scenario, cents, host)),
  index.map((i) => new ReplayTransfer(i)),
  index.map((i) => new ConflictingTransfer(i)),
  index.map((i) => new RefreshMovement(i)),
  fc.constant(new Sweep()),
  fc.constantFrom(50, 100, 250, 1_000, 3_000).map((ms) => new AdvanceClock(ms)),
  fc
    .constantFrom(...(Object.keys(BANK_BEHAVIOURS) as (keyof typeof BANK_BEHAVIOURS)[]))
    .map((behaviour) => new ChangeBankBehaviour(behaviour)),
];
