import { randomBytes } from 'node:crypto';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { BenchContext } from '../context';
import { type ReadyProcess, startReadyProcess } from '../ready-process';
import type { Backlog } from '../sweep/backlog';
import { createBenchDatabase, dropBenchDatabase, seedPostgresBacklog } from '../sweep/seed-postgres';
import { freshOriginIdRange, SOURCE_ACCOUNTS_ENV, transferRequestBody } from '../workload/transfer-request';
import { busiestWindow, ratePerSecondWithin } from './busiest-window';

export interface SharedBudgetPlan {
  /** BANK_RATE_PER_SECOND of the deployment. */
  ratePerSecond: number;
  /** How long the replicas work after the backlog falls due. */
  durationMs: number;
  /** The start of the run left out of the steady throughput (the first heartbeat, the first claims). */
  settleMs: number;
  replicaCounts: number[];
  /** Runs where the last of that many replicas starts halfway through, while the others use the whole rate. */
  joiningCounts: number[];
}

export interface SharedBudgetRun {
  replicas: number;
  /** When the last replica joined, after the backlog fell due (ms); undefined when all started together. */
  joinedAfterMs?: number;
  ratePerSecond: number;
  durationMs: number;
  /** Bank calls the sandbox received from the moment the backlog fell due until the end of the run. */
  calls: number;
  /** The most calls in any 1-second sliding window, and that ÷ the rate. */
  busiestSecond: number;
  busiestOverRate: number;
  /** The same after `settleMs`: once every replica's bucket has been drained by the backlog. */
  steadyBusiestSecond: number;
  /** Calls per second after `settleMs`, and that ÷ the rate. */
  steadyPerSecond: number;
  steadyOverRate: number;
}

/** Every movement stays IN_PROGRESS: each query finds one, and it is due again after the polling interval. */
const TIMINGS = { createdMs: 0, inProgressMs: 86_400_000 };
/** The bank's round trip: the calls a replica keeps in flight (its share of BANK_MAX_IN_FLIGHT) never bind. */
const LATENCY_MS = 20;
/** Long enough for every replica to have written a heartbeat and read the census (a beat a second). */
const HEARTBEATS_SETTLE_MS = 3_000;

/**
 * BANK_RATE_PER_SECOND shared by N reconciler processes (`apps/reconciler/dist/main.js`, as deployed) on one
 * Postgres database. They start on an empty database and beat until each knows N; then a backlog of due
 * movements appears, larger than the rate can drain in the run (each is due again after the polling interval),
 * so every replica has work the whole time. The sandbox records when each lookup arrived; the figures are the
 * busiest 1-second window and the steady rate, both against the deployment's rate.
 */
export async function runSharedBudget(
  context: BenchContext,
  serverUrl: string,
  plan: SharedBudgetPlan,
): Promise<SharedBudgetRun[]> {
  const { control } = context.sandbox;
  const before = await control.config();
  await control.configure({ timings: TIMINGS, faults: { latencyMs: LATENCY_MS } });
  try {
    const runs: SharedBudgetRun[] = [];
    for (const replicas of plan.replicaCounts) {
      runs.push(await sharedBudgetRun(context, serverUrl, plan, replicas, false));
    }
    for (const replicas of plan.joiningCounts) {
      runs.push(await sharedBudgetRun(context, serverUrl, plan, replicas, true));
    }
    return runs;
  } finally {
    await control.configure({ timings: before.timings, faults: before.faults });
  }
}

async function sharedBudgetRun(
  context: BenchContext,
  serverUrl: string,
  plan: SharedBudgetPlan,
  replicas: number,
  lastJoins: boolean,
): Promise<SharedBudgetRun> {
  const { control } = context.sandbox;
  const databaseUrl = await createBenchDatabase(serverUrl);
  await control.reset();
  const started: ReadyProcess[] = [];
  let dueFromMs: number;
  let joinedAfterMs: number | undefined;
  let endMs: number;
  try {
    for (let i = 0; i < (lastJoins ? replicas - 1 : replicas); i++) {
      started.push(await startReconciler(context, databaseUrl, plan.ratePerSecond));
    }
    await sleep(HEARTBEATS_SETTLE_MS);
    // More than the rate can query in the run: the backlog never runs dry.
    const backlog: Backlog = {
      firstOriginId: freshOriginIdRange(),
      warmup: Math.ceil((plan.ratePerSecond * plan.durationMs * 1.5) / 1_000),
      count: 0,
      nowMs: Date.now(),
    };
    await control.seed(backlog.firstOriginId, backlog.warmup, transferRequestBody());
    await seedPostgresBacklog(databaseUrl, backlog);
    dueFromMs = Date.now();
    context.log(
      `shared budget: ${replicas} replica(s)${lastJoins ? ' (the last joining halfway)' : ''} at ${plan.ratePerSecond}/s, ${backlog.warmup} movements due`,
    );
    if (lastJoins) {
      // The others share the whole rate by now; the last one's first heartbeat shrinks their parts.
      await sleep(plan.durationMs / 2);
      started.push(await startReconciler(context, databaseUrl, plan.ratePerSecond));
      joinedAfterMs = Date.now() - dueFromMs;
    }
    await sleep(Math.max(0, dueFromMs + plan.durationMs - Date.now()));
    endMs = Date.now();
  } finally {
    await Promise.all(started.map((replica) => replica.stop()));
    await dropBenchDatabase(serverUrl);
  }
  // The sandbox records a lookup after its added latency: its arrival was that much earlier.
  const arrivals = (await control.ledger())
    .flatMap((entry) => entry.lookups.map((lookup) => Date.parse(lookup.at) - LATENCY_MS))
    .filter((at) => at < endMs);
  const busiest = busiestWindow(arrivals).count;
  const steadyBusiest = busiestWindow(arrivals.filter((at) => at >= dueFromMs + plan.settleMs)).count;
  const steady = ratePerSecondWithin(arrivals, dueFromMs + plan.settleMs, endMs);
  const run: SharedBudgetRun = {
    replicas,
    ...(joinedAfterMs !== undefined && { joinedAfterMs }),
    ratePerSecond: plan.ratePerSecond,
    durationMs: endMs - dueFromMs,
    calls: arrivals.length,
    busiestSecond: busiest,
    busiestOverRate: busiest / plan.ratePerSecond,
    steadyBusiestSecond: steadyBusiest,
    steadyPerSecond: steady,
    steadyOverRate: steady / plan.ratePerSecond,
  };
  context.log(
    `shared budget ×${replicas}${lastJoins ? ' (joining)' : ''}: ${run.calls} calls, busiest second ${busiest} (${run.busiestOverRate.toFixed(2)} R; ${steadyBusiest} after ${plan.settleMs} ms), steady ${steady.toFixed(1)}/s (${run.steadyOverRate.toFixed(2)} R)`,
  );
  return run;
}

function startReconciler(context: BenchContext, databaseUrl: string, ratePerSecond: number): Promise<ReadyProcess> {
  const { bank } = context.sandbox;
  return startReadyProcess(join(dirname(require.resolve('@giro/reconciler/package.json')), 'dist', 'main.js'), {
    cwd: context.workDir,
    readyEvent: 'reconciler-ready',
    env: {
      BANK_BASE_URL: bank.url,
      ENCRYPTION_KEY: 'Z2lybyB0ZXN0IGVuY3J5cHRpb24ga2V5IDMyIGJ5dGU=',
      BANK_CA_FILE: bank.files.ca,
      BANK_CERT_FILE: bank.files.cert,
      BANK_KEY_FILE: bank.files.key,
      BANK_TOKEN: bank.token,
      BANK_HMAC_SECRET: bank.hmacSecret,
      BANK_HMAC_PRESET: bank.hmac.preset,
      ...(bank.hmac.keyId && { BANK_HMAC_KEY_ID: bank.hmac.keyId }),
      BANK_RATE_PER_SECOND: String(ratePerSecond),
      DATABASE_URL: databaseUrl,
      ADMIN_TOKEN: randomBytes(24).toString('base64url'),
      AUDIT_HMAC_KEY: randomBytes(32).toString('base64url'),
      PORT: '0',
      SOURCE_ACCOUNTS: SOURCE_ACCOUNTS_ENV,
      LOG_LEVEL: 'warn',
    },
  });
}
