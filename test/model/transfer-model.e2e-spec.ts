import { sweepUntilFinal } from '@test-support/giro-harness';
import fc from 'fast-check';
import { checkContract, createWorld, MODEL_SCENARIOS } from './model-world';
import { BANK_BEHAVIOURS, commandCounts, transferCommands } from './transfer-commands';

// Model-based: random sequences of requests, replays, conflicts, refreshes, sweeps, clock steps and bank
// misbehaviour against TransferService and SweepService (a real SQLite file, the sandbox bank over mutual
// TLS, one manual clock), with the contract checked after every command. Each run then ends with a healthy
// bank: every transfer must reach the final state its scenario dictates.

const RUNS = 40;

describe('TransferService and SweepService against a model of the bank', () => {
  let runs = 0;
  let held = false;

  afterAll(() => {
    const total = Object.values(commandCounts).reduce((sum, n) => sum + n, 0);
    const byKind = Object.entries(commandCounts)
      .map(([name, n]) => `${name} ${n}`)
      .join(', ');
    const verdict = held ? 'held after every one' : 'BROKEN (counterexample above)';
    console.log(`model: ${runs} runs, ${total} commands (${byKind}), contract ${verdict}`);
  });

  it('keep the contract after every command, and bring every transfer to its final state', async () => {
    await fc.assert(
      fc.asyncProperty(fc.commands(transferCommands, { maxCommands: 40, size: 'max' }), async (commands) => {
        runs += 1;
        const world = await createWorld();
        try {
          await fc.asyncModelRun(() => ({ model: world.model, real: world.real }), commands);
          const { model, real } = world;
          real.bank.configure(BANK_BEHAVIOURS.healthy);
          await sweepUntilFinal(real.giro, real.clock, { stepMs: 50, maxSteps: 800 });
          for (const intent of model.intents.values()) {
            const movement = await real.giro.movements.getMovement(intent.originId);
            expect({ originId: intent.originId, scenario: intent.scenario, status: movement.status }).toEqual({
              originId: intent.originId,
              scenario: intent.scenario,
              status: MODEL_SCENARIOS[intent.scenario].final,
            });
          }
          await checkContract(model, real);
        } finally {
          await world.close();
        }
      }),
      { numRuns: RUNS, endOnFailure: true },
    );
    held = true;
  }, 300_000);
});
