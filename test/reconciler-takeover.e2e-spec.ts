import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { type SandboxBank, startSandboxBank } from '@giro/sandbox-bank';
import { createTestDatabase, describeWithPostgres, type TestDatabase } from '@test-support/postgres';
import { Client } from 'pg';
import { testCertificates, transferRequest } from './support/reconciler-harness';
import {
  bankEnvironment,
  killIfRunning,
  RECONCILER_HOOK_MS,
  type ReconcilerProcess,
  startReconcilerProcess,
} from './support/reconciler-process';

// Two reconciler processes on one Postgres database. One is SIGKILLed while it holds leases on transfers whose
// creation requests hang at the bank; the other takes those leases over about 10 s later (a heartbeat a second,
// a replica silent for 10 s is dead), long before they would expire (~140 s) — and, since the killed one may
// still have had an answer, asks nothing sooner than the polling rule allows: no poll too early, nothing twice. A
// transfer the killed one never sent (its send is counted first) is sent at once.

describeWithPostgres('a SIGKILLed replica’s leases taken over', () => {
  let dir: string;
  let database: TestDatabase;
  let bank: SandboxBank;
  let db: Client;
  let replicas: ReconcilerProcess[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'giro-takeover-'));
    database = await createTestDatabase();
    const certs = await testCertificates();
    bank = await startSandboxBank({
      tls: { cert: certs.server.cert, key: certs.server.key, ca: certs.ca.cert },
      config: { polling: { minIntervalMs: 500, delayedMinIntervalMs: 2_000 } },
    });
    const env = {
      ...bankEnvironment(dir, certs, bank.url),
      DATABASE_URL: database.url,
      POLL_MIN_INTERVAL_MS: '500',
      DELAYED_MIN_INTERVAL_MS: '2000',
      SWEEP_INTERVAL_MS: '200',
    };
    replicas = await Promise.all([startReconcilerProcess(dir, env), startReconcilerProcess(dir, env)]);
    db = new Client({ connectionString: database.url });
    await db.connect();
  }, RECONCILER_HOOK_MS);
  afterAll(async () => {
    await killIfRunning(replicas);
    await db?.end();
    await bank?.close();
    await database?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  const leaseOwners = async () => {
    const { rows } = await db.query<{ lease_owner: string | null; n: string }>(
      'SELECT lease_owner, COUNT(*) AS n FROM giro_movements GROUP BY lease_owner',
    );
    return Object.fromEntries(rows.map((row) => [String(row.lease_owner), Number(row.n)]));
  };

  it('within about 10 s, never before the killed one could be unsafe', async () => {
    const [doomed, survivor] = replicas as [ReconcilerProcess, ReconcilerProcess];
    // Both beat: two rows in the registry.
    const beating = async () => (await db.query('SELECT owner FROM giro_replicas')).rows.length;
    // Bounds on state, generous: two processes and a database on a machine that may be loaded.
    const beatsDeadline = Date.now() + 30_000;
    while ((await beating()) < 2 && Date.now() < beatsDeadline) await sleep(100);
    expect(await beating()).toBe(2);

    // The bank holds every creation request for 12 s: the doomed replica's sends hang under its leases.
    bank.configure({ faults: { latencyMs: 12_000 } });
    const created = Array.from({ length: 4 }, (_, n) =>
      doomed.admin('POST', '/admin/transfers', transferRequest({ originId: 9101 + n, description: `takeover ${n}` })),
    );
    let held: Record<string, number> = {};
    const leasesDeadline = Date.now() + 30_000;
    while (Date.now() < leasesDeadline) {
      held = await leaseOwners();
      if (Object.values(held).reduce((sum, n) => sum + n, 0) === 4 && !('null' in held)) break;
      await sleep(100);
    }
    const [doomedOwner] = Object.keys(held);
    expect(held).toEqual({ [doomedOwner]: 4 });
    const leases = await db.query<{ origin_id: string; lease_expires_at_ms: string }>(
      'SELECT origin_id, lease_expires_at_ms FROM giro_movements',
    );
    const leaseExpiry = new Map(leases.rows.map((row) => [row.origin_id, Number(row.lease_expires_at_ms)]));

    const killedAt = Date.now();
    doomed.running.child.kill('SIGKILL');
    await doomed.running.exit;
    // Its last heartbeat: the silence the takeover waits for is counted from there (on a loaded machine it may
    // have come well before the kill).
    const { rows: beats } = await db.query<{ heartbeat_at_ms: string }>(
      'SELECT heartbeat_at_ms FROM giro_replicas WHERE owner = $1',
      [doomedOwner],
    );
    const lastBeat = Number(beats[0]?.heartbeat_at_ms);
    void Promise.allSettled(created);
    bank.configure({ faults: { latencyMs: 0 } });
    // A send is counted before it starts: what the killed one counted may have reached the bank, what it never
    // counted (still waiting for its turn when it died, on a loaded machine) was never sent.
    const sent = (
      await db.query<{ origin_id: string }>('SELECT origin_id FROM giro_movements WHERE attempts > 0')
    ).rows.map((row) => row.origin_id);
    expect(sent.length).toBeGreaterThan(0);

    let takenAt = Number.NaN;
    for (;;) {
      const owners = await leaseOwners();
      if (!(doomedOwner in owners)) {
        takenAt = Date.now();
        break;
      }
      if (Date.now() - killedAt > 60_000) throw new Error(`not taken over in 60 s: ${JSON.stringify(owners)}`);
      await sleep(200);
    }
    console.log(
      `leases of a SIGKILLed replica taken over ${((takenAt - lastBeat) / 1000).toFixed(1)} s after its last ` +
        `heartbeat, seen ${((takenAt - killedAt) / 1000).toFixed(1)} s after the kill`,
    );
    // Silent 10 s (TAKEOVER_AFTER_SILENCE_MS), then a sweep of the survivor: seen no sooner than that after the last
    // heartbeat, and well before the leases' own expiry (~140 s).
    expect(takenAt).toBeGreaterThanOrEqual(lastBeat + 10_000);
    expect(takenAt).toBeLessThan(Math.min(...leaseExpiry.values()));

    // The survivor took them (a sweep claimed each), and since the killed one may still have had an answer for
    // each it sent, put off the first query of those until DELAYED's rule has passed since the old lease's expiry.
    // One it never sent goes at once (QuerySchedule.afterTakeover). The claim takes the lease, then the hold writes
    // the schedule and gives the lease back: read the rows once none of them is held.
    const heldBySurvivor = async () =>
      (await db.query('SELECT 1 FROM giro_movements WHERE origin_id = ANY($1) AND lease_owner IS NOT NULL', [sent]))
        .rows.length;
    const holdDeadline = Date.now() + 30_000;
    while ((await heldBySurvivor()) > 0 && Date.now() < holdDeadline) await sleep(100);
    expect(await heldBySurvivor()).toBe(0);
    const after = await db.query<{ origin_id: string; next_query_at_ms: string; status: string }>(
      'SELECT origin_id, next_query_at_ms, status FROM giro_movements WHERE origin_id = ANY($1)',
      [sent],
    );
    expect(after.rows).toHaveLength(sent.length);
    for (const row of after.rows) {
      expect(row.status).toBe('PENDING');
      expect(Number(row.next_query_at_ms)).toBeGreaterThan((leaseExpiry.get(row.origin_id) as number) + 2_000);
    }
    await sleep(2_000);
    expect(bank.counters()).toMatchObject({ pollsTooEarly: 0, processedTwice: 0 });
    expect(await survivor.stop()).toEqual({ code: 0, signal: null });
  }, 150_000);
});
