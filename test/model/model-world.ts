import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LedgerEntry, SandboxBank } from '@giro/sandbox-bank';
import { type FinalStatus, isFinalStatus, type MovementView } from '@giro/transfer-module';
import { type ManualClock } from '@giro/transfer-module/testing';
import { allMovements } from '@test-support/contract-checks';
import { type Giro, giroOptions, manualClock, startGiro, startTestSandbox } from '@test-support/giro-harness';

// The world a model-based run acts on: giro (TransferService + SweepService on a real SQLite file) and the
// in-process sandbox bank, both on one manual clock; and the model, the little that must stay true of them.

/** The sandbox scenarios a model intent may take, with the final state each must reach. */
export const MODEL_SCENARIOS = {
  normal: { tags: '', final: 'COMPLETED', goesOut: true },
  fail: { tags: ' [fail]', final: 'FAILED', goesOut: true },
  delay: { tags: ' [delay]', final: 'COMPLETED', goesOut: true },
  reject: { tags: ' [reject]', final: 'FAILED', goesOut: false },
  lost: { tags: ' [lost]', final: 'COMPLETED', goesOut: true },
} as const;

export type ModelScenario = keyof typeof MODEL_SCENARIOS;

export interface ModelIntent {
  originId: number;
  scenario: ModelScenario;
  /** The request as the host sent it (re-sent unchanged by a replay). */
  request: Record<string, unknown>;
}

export class TransferModel {
  readonly intents = new Map<number, ModelIntent>();
  /** The first final status seen for each originId: it must never change. */
  readonly finals = new Map<number, FinalStatus>();
  /** Largest originId giro allocated so far: allocation only moves forward. */
  lastAllocated = 0;
  nextHostOriginId = 1_000;
}

export interface Real {
  giro: Omit<Giro, 'app' | 'close'>;
  bank: SandboxBank;
  clock: ManualClock;
}

export interface World {
  model: TransferModel;
  real: Real;
  close(): Promise<void>;
}

export async function createWorld(): Promise<World> {
  const dir = mkdtempSync(join(tmpdir(), 'giro-model-'));
  const clock = manualClock();
  const bank = await startTestSandbox(clock);
  const giro = await startGiro(await giroOptions(bank, clock, { databaseUrl: `sqlite:${join(dir, 'giro.sqlite')}` }));
  return {
    model: new TransferModel(),
    real: { giro, bank, clock },
    async close() {
      await giro.close();
      await bank.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * The contract, checked after every command: no originId processed twice or polled too soon; giro stores
 * exactly the model's intents and the bank processed no other; a final status never changes; FAILED comes
 * with exactly one cancellation (and nothing else does); a status giro shows is one the bank reached, and a
 * FAILED that went out is FAILED at the bank; nothing contradicted a final answer.
 */
export async function checkContract(model: TransferModel, real: Real): Promise<void> {
  const counters = real.bank.counters();
  expect({ processedTwice: counters.processedTwice, pollsTooEarly: counters.pollsTooEarly }).toEqual({
    processedTwice: 0,
    pollsTooEarly: 0,
  });
  const movements = await allMovements(real.giro.movements);
  const numerically = (a: number, b: number) => a - b;
  expect(movements.map((movement) => movement.originId).sort(numerically)).toEqual(
    [...model.intents.keys()].sort(numerically),
  );
  const ledger = ledgerOf(real.bank);
  for (const entry of ledger.values()) expect(model.intents.has(entry.originId)).toBe(true);

  const cancellations = await real.giro.cancellations.listCancellations();
  expect(cancellations.map((c) => c.originId).sort(numerically)).toEqual(
    movements
      .filter((m) => m.status === 'FAILED')
      .map((m) => m.originId)
      .sort(numerically),
  );
  for (const movement of movements) {
    const intent = model.intents.get(movement.originId) as ModelIntent;
    checkMovement(movement, intent, ledger.get(movement.originId), model.finals);
  }
}

function checkMovement(
  movement: MovementView,
  intent: ModelIntent,
  entry: LedgerEntry | undefined,
  finals: Map<number, FinalStatus>,
): void {
  const where = { originId: movement.originId, scenario: intent.scenario };
  const seen = finals.get(movement.originId);
  if (seen !== undefined) expect({ ...where, status: movement.status }).toEqual({ ...where, status: seen });
  if (isFinalStatus(movement.status)) finals.set(movement.originId, movement.status);
  expect(movement.anomalies).toEqual([]);
  if (movement.status === 'FAILED') {
    expect(movement.cancellation).toMatchObject({ originId: movement.originId, amount: movement.amount });
  } else expect(movement.cancellation).toBeNull();

  if (movement.status === 'PENDING') return;
  if (entry === undefined) {
    // Only a transfer the bank refused at creation is known to giro without being at the bank.
    expect({ ...where, status: movement.status }).toEqual({ ...where, status: 'FAILED' });
    expect(MODEL_SCENARIOS[intent.scenario].goesOut).toBe(false);
    return;
  }
  expect(entry.states.map((state) => state.status)).toContain(movement.status);
  if (isFinalStatus(movement.status))
    expect({ ...where, bank: entry.status }).toEqual({ ...where, bank: movement.status });
}

export function ledgerOf(bank: SandboxBank): Map<number, LedgerEntry> {
  return new Map(bank.ledger.page({ limit: 1000 }).entries.map((entry) => [entry.originId, entry]));
}
