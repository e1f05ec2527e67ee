import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ChaosRun } from './chaos-run';
import { chaosSize } from './chaos-size';

// The crash and fault suite on SQLite: one reconciler process, SIGKILLed and restarted at random moments while
// a host submits transfers through its admin API and the sandbox bank answers with 5xx, resets before and
// after processing, hangs, truncated bodies and 429s. The run's closing line gives the figures.

const size = chaosSize({ ci: { transfers: 2_000, kills: 10 }, big: { transfers: 20_000, kills: 60 } });
const timeoutMs = 240_000 + size.transfers * 120;

describe('chaos on SQLite: one reconciler, killed at random', () => {
  let dir: string;
  let run: ChaosRun | undefined;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'giro-chaos-sqlite-'));
  });
  afterAll(async () => {
    await run?.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  it(
    'keeps the contract: nothing lost, nothing twice, every movement final and agreeing with the bank',
    async () => {
      run = new ChaosRun({
        label: 'sqlite',
        dir,
        databaseUrl: `sqlite:${join(dir, 'giro.sqlite')}`,
        replicas: 1,
        ...size,
        seed: 20240501,
        duplicateMode: 'return-existing',
      });
      const outcome = await run.run().catch((error: unknown) => {
        throw new Error(`${(error as Error).message}\n--- reconciler output (end) ---\n${run?.logTail()}`);
      });
      console.log(outcome.summary);
      expect(outcome.violations).toEqual([]);
    },
    timeoutMs,
  );
});
