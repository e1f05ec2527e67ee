import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ChaosRun } from './chaos-run';
import { chaosSize } from './chaos-size';
import { SqliteFaults } from './sqlite-faults';

// The crash and fault suite on SQLite: one reconciler process, SIGKILLed and restarted at random moments while
// a host submits transfers through its admin API and the sandbox bank answers with 5xx, resets before and
// after processing, hangs, truncated bodies and 429s. Mid-run, the database file is locked by another process
// for seconds, and later the disk is full for seconds. The run's closing line gives the figures.

const size = chaosSize({ ci: { transfers: 2_000, kills: 10 }, big: { transfers: 20_000, kills: 60 } });
const outageMs = process.env.CHAOS_BIG === '1' ? 20_000 : 6_000;
const timeoutMs = 240_000 + size.transfers * 120 + outageMs * 4;

describe('chaos on SQLite: one reconciler, killed at random', () => {
  let dir: string;
  let run: ChaosRun | undefined;
  let faults: SqliteFaults | undefined;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'giro-chaos-sqlite-'));
  });
  afterAll(async () => {
    await run?.dispose();
    faults?.dispose();
    if (!process.env.CHAOS_KEEP) rmSync(dir, { recursive: true, force: true });
  });

  it(
    'keeps the contract: nothing lost, nothing twice, every movement final and agreeing with the bank',
    async () => {
      const file = join(dir, 'giro.sqlite');
      const sqlite = new SqliteFaults(file, dir);
      faults = sqlite;
      run = new ChaosRun({
        label: 'sqlite',
        dir,
        databaseUrl: `sqlite:${file}`,
        replicas: 1,
        ...size,
        seed: 20240501,
        duplicateMode: 'return-existing',
        reconcilerSetup: sqlite.reconcilerSetup(),
        databaseFaults: {
          outages: [
            { fault: sqlite.lock(outageMs), afterMs: 10_000 },
            { fault: sqlite.diskFull(outageMs), afterMs: 25_000 },
          ],
        },
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
