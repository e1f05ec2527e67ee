import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestDatabase, describeWithPostgres, type TestDatabase } from '@test-support/postgres';
import { ChaosRun } from './chaos-run';
import { chaosSize } from './chaos-size';
import { PostgresFaults } from './postgres-faults';

// The crash and fault suite on Postgres: THREE reconciler processes on one database, each SIGKILLed and
// restarted at its own random moments, while a host submits transfers through any of them and the sandbox
// bank (answering a repeated originId with 409 this time) injects every fault it has. The database is faulted
// too: every connection of the run's database is terminated (pg_terminate_backend) again and again, and mid-run it
// refuses connections for 10 s (30 s big) through a proxy of the run's own.

const size = chaosSize({ ci: { transfers: 2_000, kills: 12 }, big: { transfers: 20_000, kills: 60 } });
const outageMs = process.env.CHAOS_BIG === '1' ? 30_000 : 10_000;
const timeoutMs = 240_000 + size.transfers * 120 + outageMs * 2;

describeWithPostgres('chaos on Postgres: three reconcilers, each killed at random', () => {
  let dir: string;
  let database: TestDatabase | undefined;
  let run: ChaosRun | undefined;
  let faults: PostgresFaults | undefined;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'giro-chaos-postgres-'));
  });
  afterAll(async () => {
    await run?.dispose();
    await faults?.close();
    await database?.drop();
    if (!process.env.CHAOS_KEEP) rmSync(dir, { recursive: true, force: true });
  });

  it(
    'keeps the contract: nothing lost, nothing twice, every movement final and agreeing with the bank',
    async () => {
      database = await createTestDatabase('giro_chaos');
      const postgres = await PostgresFaults.start(database);
      faults = postgres;
      run = new ChaosRun({
        label: 'postgres',
        dir,
        databaseUrl: postgres.url,
        replicas: 3,
        ...size,
        seed: 20240502,
        duplicateMode: 'conflict',
        databaseFaults: {
          background: {
            start: (random, restarting) => postgres.startTerminating({ min: 3_000, max: 6_000 }, random, restarting),
            stop: () => postgres.stopTerminatingBackends(),
            summary: () => `${postgres.terminated} connections terminated in ${postgres.rounds} rounds`,
          },
          outages: [{ fault: postgres.refusal(outageMs), afterMs: 20_000 }],
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
