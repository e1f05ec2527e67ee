import type { SandboxBank } from '@giro/sandbox-bank';
import type { CancellationService, MovementService, MovementView } from '@giro/transfer-module';

// The eight-point contract, checked from the outside: what the sandbox bank saw and what giro stored.

/** Every movement giro stores (all pages). */
export async function allMovements(movements: MovementService): Promise<MovementView[]> {
  const found: MovementView[] = [];
  let after: string | undefined;
  do {
    const page = await movements.listMovements({}, { limit: 100, ...(after !== undefined && { after }) });
    found.push(...page.items);
    after = page.nextCursor ?? undefined;
  } while (after !== undefined);
  return found;
}

/**
 * The bank processed no originId twice, was never polled sooner than the rule allows (nor after a final
 * answer), and processed only originIds giro stores — each exactly once.
 */
export async function expectBankSawTheContract(bank: SandboxBank, movements: MovementService): Promise<void> {
  expect(bank.counters()).toMatchObject({ processedTwice: 0, pollsTooEarly: 0, pollsAfterFinal: 0 });
  const stored = new Set((await allMovements(movements)).map((movement) => movement.originId));
  const processed = bank.ledger.page({ limit: 1000 }).entries.map((entry) => entry.originId);
  expect(new Set(processed).size).toBe(processed.length);
  for (const originId of processed) expect(stored.has(originId)).toBe(true);
}

/** Exactly one cancellation per FAILED movement, with its amount, and none for any other. */
export async function expectOneCancellationPerFailed(giro: {
  movements: MovementService;
  cancellations: CancellationService;
}): Promise<void> {
  const movements = await allMovements(giro.movements);
  const cancellations = await giro.cancellations.listCancellations();
  const failed = movements.filter((movement) => movement.status === 'FAILED');
  expect(cancellations.map((c) => c.originId).sort()).toEqual(failed.map((m) => m.originId).sort());
  for (const movement of failed) {
    expect(movement.cancellation).toMatchObject({ originId: movement.originId, amount: movement.amount });
  }
  for (const movement of movements.filter((m) => m.status !== 'FAILED')) expect(movement.cancellation).toBeNull();
}

/** Each status appears at most once in a movement's history (no answer was written twice). */
export function expectNoRepeatedTransition(movement: MovementView): void {
  const statuses = movement.history.map((entry) => entry.to);
  expect(new Set(statuses).size).toBe(statuses.length);
}
