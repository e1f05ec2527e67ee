import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestDatabase, describeWithPostgres, type TestDatabase } from '@test-support/postgres';
import { ChaosRun } from './chaos-run';
import { chaosSize } from './chaos-size';

// The crash and fault suite on Postgres: THREE reconciler processes on one database, each SIGKILLed and
// restarted at its own random moments, while a host submits transfers through any of them and the sandbox
// bank (answering a repeated originId with 409 this time) injects every fault it has.

const size = chaosSize({ ci: { transfers: 2_000, kills: 12 }, big: { transfers: 20_000, kills: 60 } });
const timeoutMs = 240_000 + size.transfers * 120;

describeWithPostgres('chaos on Postgres: three reconcilers, each killed at random', () => {
  let dir: string;
  let database: TestDatabase | undefined;
  let run: ChaosRun | undefined;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'giro-chaos-postgres-'));
  });
  afterAll(async () => {
    await run?.dispose();
    await database?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it(
    'keeps the contract: nothing lost, nothing twice, every movement final and agreeing with the bank',
    async () => {
      database = await createTestDatabase('giro_chaos');
      run = new ChaosRun({
        label: 'postgres',
        dir,
        databaseUrl: database.url,
        replicas: 3,
        ...size,
        seed: 20240502,
        duplicateMode: 'conflict',
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
