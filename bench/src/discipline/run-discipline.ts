import { randomBytes } from 'node:crypto';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { LedgerEntry } from '@giro/sandbox-bank';
import type { BenchContext } from '../context';
import { closedLoop } from '../load';
import { startReadyProcess } from '../ready-process';
import { SOURCE_ACCOUNTS_ENV, transferRequestBody } from '../workload/transfer-request';
import { analyzeDiscipline, type DisciplineFigures, type PollingRules } from './discipline-analysis';

/** The polling rules scaled down 5× (CREATED / IN_PROGRESS) and 150× (DELAYED); the sandbox audits the same. */
export const DISCIPLINE_RULES: PollingRules = { minIntervalMs: 1_000, delayedMinIntervalMs: 4_000 };
/** The pause between the reconciler's sweeps, scaled like the minimum interval (its default is 1 s of 5 s). */
export const DISCIPLINE_SWEEP_INTERVAL_MS = 200;
/** Each movement: 1.5 s CREATED, 3 s IN_PROGRESS, then final; `[delay]` ones 6 s DELAYED before COMPLETED. */
const TIMINGS = { createdMs: 1_500, inProgressMs: 3_000, delayedMs: 6_000 };
const CREATE_CONCURRENCY = 8;
const SETTLE_TIMEOUT_MS = 120_000;

export interface DisciplineRun extends DisciplineFigures {
  rules: PollingRules;
  sweepIntervalMs: number;
  /** The sandbox's pollsTooEarly: lookups sooner than the rules allow. */
  earlyQueries: number;
  pollsAfterFinal: number;
  /** From the first creation until every movement was final. */
  durationMs: number;
}

/**
 * The reconciler as it is deployed (its own process, `apps/reconciler/dist/main.js`, configured by
 * environment, SQLite) follows a batch of transfers created through its admin API; the sandbox's ledger then
 * says when each state changed and when each lookup came.
 */
export async function runDisciplineBenchmark(context: BenchContext): Promise<DisciplineRun> {
  const { control, bank } = context.sandbox;
  const movements = context.plan.discipline.movements;
  const before = await control.config();
  await control.reset();
  await control.configure({ timings: TIMINGS, polling: DISCIPLINE_RULES });
  const adminToken = randomBytes(24).toString('base64url');
  const reconciler = await startReadyProcess(
    join(dirname(require.resolve('@giro/reconciler/package.json')), 'dist', 'main.js'),
    {
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
        DATABASE_URL: `sqlite:${join(context.workDir, 'discipline.sqlite')}`,
        ADMIN_TOKEN: adminToken,
        AUDIT_HMAC_KEY: randomBytes(32).toString('base64url'),
        PORT: '0',
        POLL_MIN_INTERVAL_MS: String(DISCIPLINE_RULES.minIntervalMs),
        DELAYED_MIN_INTERVAL_MS: String(DISCIPLINE_RULES.delayedMinIntervalMs),
        ALLOW_POLLING_BELOW_SPEC: 'true', // the sandbox audits the same scaled-down rules
        SOURCE_ACCOUNTS: SOURCE_ACCOUNTS_ENV,
        SWEEP_INTERVAL_MS: String(DISCIPLINE_SWEEP_INTERVAL_MS),
        LOG_LEVEL: 'warn',
      },
    },
  );
  let durationMs: number;
  try {
    const started = Date.now();
    const created = await closedLoop(CREATE_CONCURRENCY, movements, async (index) => {
      const response = await fetch(`${String(reconciler.ready.url)}/admin/transfers`, {
        method: 'POST',
        headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
        body: JSON.stringify(transferRequestBody(descriptionOf(index))),
      });
      if (response.status !== 201)
        throw new Error(`POST /admin/transfers answered ${response.status}: ${await response.text()}`);
    });
    if (created.errors > 0) throw new Error(`${created.errors} transfers were not created: ${created.firstError}`);
    await waitUntilSettled(context, movements);
    durationMs = Date.now() - started;
  } finally {
    await reconciler.stop();
    await control.configure({ timings: before.timings, polling: before.polling });
  }
  const counters = await control.counters();
  const figures = analyzeDiscipline(await control.ledger(), DISCIPLINE_RULES);
  context.log(
    `discipline: ${figures.queries} queries for a minimum of ${figures.minimumQueries}, lag p99 ${figures.lagP99Ms} ms, ${counters.pollsTooEarly} early`,
  );
  return {
    ...figures,
    rules: DISCIPLINE_RULES,
    sweepIntervalMs: DISCIPLINE_SWEEP_INTERVAL_MS,
    earlyQueries: counters.pollsTooEarly,
    pollsAfterFinal: counters.pollsAfterFinal,
    durationMs,
  };
}

/** One in ten is delayed, one in ten fails, the rest complete. */
function descriptionOf(index: number): string {
  if (index % 10 === 3) return 'giro bench [delay]';
  if (index % 10 === 7) return 'giro bench [fail]';
  return 'giro bench';
}

async function waitUntilSettled(context: BenchContext, movements: number): Promise<void> {
  const deadline = Date.now() + SETTLE_TIMEOUT_MS;
  for (;;) {
    const entries = await context.sandbox.control.ledger();
    const settled = entries.filter(answeredFinal).length;
    if (entries.length === movements && settled === movements) return;
    if (Date.now() > deadline) {
      throw new Error(`only ${settled} of ${movements} movements were seen final within ${SETTLE_TIMEOUT_MS} ms`);
    }
    await sleep(500);
  }
}

function answeredFinal(entry: LedgerEntry): boolean {
  return entry.lookups.some((lookup) => lookup.answered === 'COMPLETED' || lookup.answered === 'FAILED');
}
