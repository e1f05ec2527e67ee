import { randomBytes } from 'node:crypto';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  DUPLICATE_ORIGIN_ID,
  type LedgerEntry,
  type LedgerPage,
  type SandboxBank,
  startSandboxBank,
} from '@giro/sandbox-bank';
import { createDevCertificates } from '@giro/sandbox-bank/certs/dev-certificates';
import { seededRandom } from '@giro/sandbox-bank/faults/seeded-random';
import type { CancellationView, MovementView } from '@giro/transfer-module';
import { SAMPLE_SOURCE_ACCOUNTS } from '@test-support/reconciler-harness';
import { findSecrets } from '@test-support/secret-scan';
import { type ChaosIntent, chaosIntents } from './chaos-intents';
import { type ChaosFigures, chaosSummary, judgeChaosRun } from './chaos-verdict';
import {
  judgeOutage,
  type OutageFault,
  type OutageReport,
  outageSummary,
  probeIntentsFor,
  runOutage,
} from './database-outage';
import { superviseWithKills } from './kill-supervisor';
import { KillWindow } from './kill-window';
import { KillableReconciler } from './killable-reconciler';
import { type DriverReport, TransferDriver } from './transfer-driver';

// One chaos run: a sandbox bank with faults on, reconciler replicas as child processes that a supervisor
// SIGKILLs and restarts at random (seeded) moments, and a host submitting N transfers through their admin
// API. Then faults off, convergence (bounded), and the verdict.

export interface ChaosRunOptions {
  label: string;
  /** Scratch folder: certificates, the log of every reconciler incarnation, the SQLite file. */
  dir: string;
  databaseUrl: string;
  replicas: number;
  transfers: number;
  kills: number;
  seed: number;
  /** How the sandbox answers a repeated originId; `conflict` also sets BANK_DUPLICATE_CODES. */
  duplicateMode: 'return-existing' | 'conflict';
  databaseFaults?: DatabaseFaultPlan;
  /** Given to every reconciler child besides the run's own: a test hook's node options and environment. */
  reconcilerSetup?: { nodeArgs: string[]; env: Record<string, string> };
}

/** Faults of the database during the chaos, besides the kills and the bank's faults. */
export interface DatabaseFaultPlan {
  /** Runs from the start of the chaos to its end (on Postgres: giro's connections terminated again and again). */
  background?: {
    /** `restarting` tells when a killed replica is starting again (its migrations need the database). */
    start(random: () => number, restarting: () => boolean): void;
    stop(): Promise<void>;
    summary(): string;
  };
  /** Outages one after another, each `afterMs` after the start of the chaos at the earliest; no kill during one. */
  outages: { fault: OutageFault; afterMs: number }[];
}

export interface ChaosOutcome {
  figures: ChaosFigures;
  kills: number;
  outages: OutageReport[];
  violations: string[];
  summary: string;
}

/** The polling rule scaled down 1/16 (5 s → 312 ms, 10 min → 1.5 s); the sandbox audits the same figures. */
const POLLING = { minIntervalMs: 312, delayedMinIntervalMs: 1_500 };
const SANDBOX_TIMINGS = { createdMs: 300, inProgressMs: 700, delayedMs: 2_500 };
const FAULTS = {
  serverErrorRate: 0.03,
  resetBeforeRate: 0.02,
  resetAfterRate: 0.03,
  hangRate: 0.01,
  malformedRate: 0.03,
  rateLimitRate: 0.03,
  retryAfterSeconds: 1,
};
const NO_FAULTS = {
  serverErrorRate: 0,
  resetBeforeRate: 0,
  resetAfterRate: 0,
  hangRate: 0,
  malformedRate: 0,
  rateLimitRate: 0,
};
/** The bank client gives up on a hanging request after this long (connect, headers and body each). */
const BANK_TIMEOUT_MS = 1_000;
const KILL_PLAN = { uptimeMs: { min: 1_000, max: 4_000 }, downtimeMs: { min: 0, max: 1_000 } };
/**
 * Once the chaos stops (the last submission answered, the last kill restarted, faults off), every movement
 * is final within this long: the lease of a killed process (2 × (3 × BANK_TIMEOUT_MS + the polling
 * interval)), a DELAYED movement's wait, and the backlog of queries the creations held back. That backlog
 * grows with the run: a sweep works through it at 50 to 100 movements a second on these two cores, and a
 * movement given back during a sweep waits for the next one. Observed at 2,000 transfers: 5 to 30 s.
 */
function convergenceBoundMs(transfers: number): number {
  return 60_000 + 40 * transfers;
}

export class ChaosRun {
  private bank: SandboxBank | undefined;
  private replicas: KillableReconciler[] = [];
  private driver: TransferDriver | undefined;
  private readonly logFile: string;
  private readonly secrets = {
    ADMIN_TOKEN: `chaos-admin-token-${randomBytes(12).toString('hex')}`,
    AUDIT_HMAC_KEY: `chaos-audit-hmac-key-${randomBytes(16).toString('hex')}`,
    BANK_HMAC_SECRET: `chaos-hmac-secret-${randomBytes(12).toString('hex')}`,
    BANK_CLIENT_SECRET: `chaos-client-secret-${randomBytes(12).toString('hex')}`,
    BANK_KEY_PASSPHRASE: `chaos-key-passphrase-${randomBytes(12).toString('hex')}`,
    SANDBOX_STATIC_TOKEN: `chaos-static-token-${randomBytes(12).toString('hex')}`,
  };
  private readonly clientId = 'giro-chaos';

  constructor(private readonly options: ChaosRunOptions) {
    this.logFile = join(options.dir, 'reconcilers.log');
  }

  async run(): Promise<ChaosOutcome> {
    const { options } = this;
    const random = seededRandom(options.seed);
    this.bank = await this.startBank();
    await this.startReplicas(this.reconcilerEnvironment(this.bank));
    const outagePlan = options.databaseFaults?.outages ?? [];
    const probes = outagePlan.map(({ fault }) => probeIntentsFor(fault.durationMs));
    const total = options.transfers + probes.reduce((sum, count) => sum + count, 0);
    const intents = chaosIntents(total, 9_000_000_000 + Math.floor(random() * 1e9), random);

    const startedAt = Date.now();
    const window = new KillWindow();
    options.databaseFaults?.background?.start(random, () => window.restarting);
    const [driverReport, , outages] = await Promise.all([
      this.submit(intents.slice(0, options.transfers), random),
      superviseWithKills(this.replicas, { kills: options.kills, ...KILL_PLAN }, random, window),
      this.runOutages(intents.slice(options.transfers), probes, startedAt, window),
    ]);
    await options.databaseFaults?.background?.stop();
    this.bank.configure({ faults: NO_FAULTS });
    const chaosEndedAt = Date.now();
    const boundMs = convergenceBoundMs(options.transfers);
    await this.converge(intents.length, chaosEndedAt + boundMs);

    const movements = await this.allMovements();
    const cancellations = (await this.admin('/admin/cancellations')) as CancellationView[];
    for (const replica of this.replicas) {
      const exit = await replica.stop();
      if (exit.code !== 0) throw new Error(`${replica.name} stopped with ${JSON.stringify(exit)}`);
    }
    const { figures, violations } = judgeChaosRun({
      intents,
      driver: driverReport,
      movements,
      cancellations,
      ledger: this.ledgerEntries(),
      counters: this.bank.counters(),
      startedAt,
      chaosEndedAt,
      boundMs,
      secretsInOutput: this.secretsInOutput(),
      outputBytes: statSync(this.logFile).size,
    });
    violations.push(...outages.flatMap(judgeOutage));
    const kills = this.replicas.reduce((sum, replica) => sum + replica.kills, 0);
    const failedStarts = this.replicas.reduce((sum, replica) => sum + replica.failedStarts, 0);
    const database = [
      options.databaseFaults?.background?.summary(),
      ...(failedStarts > 0 ? [`${failedStarts} starts failed (started again)`] : []),
      ...outages.map(outageSummary),
    ].filter(Boolean);
    const summary = chaosSummary(options.label, kills, figures);
    return {
      figures,
      kills,
      outages,
      violations,
      summary: database.length > 0 ? `${summary}; database faults: ${database.join('; ')}` : summary,
    };
  }

  /** The planned outages, each once its time has come and no kill is under way. */
  private async runOutages(
    probeIntents: ChaosIntent[],
    probes: number[],
    startedAt: number,
    window: KillWindow,
  ): Promise<OutageReport[]> {
    const reports: OutageReport[] = [];
    let next = 0;
    for (const [index, { fault, afterMs }] of (this.options.databaseFaults?.outages ?? []).entries()) {
      await sleep(Math.max(0, startedAt + afterMs - Date.now()));
      const mine = probeIntents.slice(next, next + (probes[index] ?? 0));
      next += mine.length;
      const watch = {
        replicas: this.replicas,
        adminToken: this.secrets.ADMIN_TOKEN,
        probeIntents: mine,
        logFile: this.logFile,
      };
      reports.push(await window.exclusive(() => runOutage(fault, watch)));
    }
    return reports;
  }

  /** Kills every replica still running and closes the bank: call it in afterAll, whatever happened. */
  async dispose(): Promise<void> {
    await Promise.all(this.replicas.map((replica) => replica.killIfRunning()));
    await this.driver?.close();
    await this.bank?.close();
  }

  /** The end of the log of every reconciler incarnation, to show when the run fails. */
  logTail(lines = 40): string {
    return readFileSync(this.logFile, 'utf8').split('\n').slice(-lines).join('\n');
  }

  /** Starts the replicas together, as a deployment does (on Postgres their migrations meet the advisory lock). */
  private async startReplicas(env: Record<string, string>): Promise<void> {
    writeFileSync(this.logFile, '');
    for (let index = 0; index < this.options.replicas; index++) {
      const port = await freePort();
      const setup = this.options.reconcilerSetup;
      const options = {
        cwd: this.options.dir,
        env: { ...env, ...setup?.env },
        port,
        logFile: this.logFile,
        nodeArgs: setup?.nodeArgs ?? [],
      };
      this.replicas.push(new KillableReconciler(`replica ${index + 1}`, options));
    }
    await Promise.all(this.replicas.map((replica) => replica.start()));
  }

  private submit(intents: ChaosIntent[], random: () => number): Promise<DriverReport> {
    this.driver = new TransferDriver({
      targets: this.replicas.map((replica) => replica.url),
      adminToken: this.secrets.ADMIN_TOKEN,
      concurrency: 16,
      hosts: 32,
      requestTimeoutMs: 10_000,
      intentTimeoutMs: 120_000,
      random,
    });
    return this.driver.submitAll(intents);
  }

  /** The configured secrets found anywhere in the output of every reconciler incarnation. */
  private secretsInOutput(): string[] {
    const { secrets, clientId } = this;
    return findSecrets(readFileSync(this.logFile, 'utf8'), {
      ...secrets,
      'client credentials (HTTP Basic)': `${clientId}:${secrets.BANK_CLIENT_SECRET}`,
    });
  }

  private async startBank(): Promise<SandboxBank> {
    const { secrets, options } = this;
    const certs = await createDevCertificates({ clientKeyPassphrase: secrets.BANK_KEY_PASSPHRASE });
    writeFileSync(join(options.dir, 'ca.pem'), certs.ca.cert);
    writeFileSync(join(options.dir, 'client.pem'), certs.client.cert);
    writeFileSync(join(options.dir, 'client-key.pem'), certs.client.key, { mode: 0o600 });
    return startSandboxBank({
      tls: { cert: certs.server.cert, key: certs.server.key, ca: certs.ca.cert },
      credentials: {
        token: secrets.SANDBOX_STATIC_TOKEN,
        clientId: this.clientId,
        clientSecret: secrets.BANK_CLIENT_SECRET,
        hmacSecret: secrets.BANK_HMAC_SECRET,
      },
      config: {
        timings: SANDBOX_TIMINGS,
        polling: POLLING,
        registrationLagMs: 100,
        duplicateMode: options.duplicateMode,
        faults: FAULTS,
        seed: options.seed,
      },
    });
  }

  private reconcilerEnvironment(bank: SandboxBank): Record<string, string> {
    const { secrets, options } = this;
    return {
      BANK_BASE_URL: bank.url,
      ENCRYPTION_KEY: 'Z2lybyB0ZXN0IGVuY3J5cHRpb24ga2V5IDMyIGJ5dGU=',
      BANK_CA_FILE: join(options.dir, 'ca.pem'),
      BANK_CERT_FILE: join(options.dir, 'client.pem'),
      BANK_KEY_FILE: join(options.dir, 'client-key.pem'),
      BANK_KEY_PASSPHRASE: secrets.BANK_KEY_PASSPHRASE,
      BANK_TOKEN_URL: `${bank.url}/oauth/token`,
      BANK_CLIENT_ID: this.clientId,
      BANK_CLIENT_SECRET: secrets.BANK_CLIENT_SECRET,
      BANK_HMAC_SECRET: secrets.BANK_HMAC_SECRET,
      ...(options.duplicateMode === 'conflict' && { BANK_DUPLICATE_CODES: DUPLICATE_ORIGIN_ID }),
      BANK_TIMEOUT_MS: String(BANK_TIMEOUT_MS),
      ADMIN_TOKEN: secrets.ADMIN_TOKEN,
      AUDIT_HMAC_KEY: secrets.AUDIT_HMAC_KEY,
      DATABASE_URL: options.databaseUrl,
      POLL_MIN_INTERVAL_MS: String(POLLING.minIntervalMs),
      DELAYED_MIN_INTERVAL_MS: String(POLLING.delayedMinIntervalMs),
      ALLOW_POLLING_BELOW_SPEC: 'true',
      SOURCE_ACCOUNTS: SAMPLE_SOURCE_ACCOUNTS,
      SWEEP_INTERVAL_MS: '100',
      // The driver submits thousands of transfers with the one admin token: its budget is not what is tested.
      ADMIN_RATE_LIMIT_PER_MINUTE: '1000000',
      LOG_LEVEL: 'debug',
    };
  }

  /** Waits until the database holds `expected` movements, all final, or the bound has passed. */
  private async converge(expected: number, bound: number): Promise<void> {
    while (Date.now() < bound) {
      const counts = await this.movementCounts();
      const nonFinal = Object.entries(counts).filter(([status]) => status !== 'COMPLETED' && status !== 'FAILED');
      const total = Object.values(counts).reduce((sum, count) => sum + count, 0);
      if (total === expected && nonFinal.every(([, count]) => count === 0)) return;
      await sleep(250);
    }
  }

  /** giro_movements{status} from /metrics (read from the database at scrape time). */
  private async movementCounts(): Promise<Record<string, number>> {
    const text = await fetch(`${this.replicas[0]?.url}/metrics`).then((response) => response.text());
    const counts: Record<string, number> = {};
    for (const match of text.matchAll(/^giro_movements\{status="(\w+)"\} (\d+)$/gm)) {
      counts[match[1] as string] = Number(match[2]);
    }
    return counts;
  }

  private async allMovements(): Promise<MovementView[]> {
    const movements: MovementView[] = [];
    let after: string | null = null;
    do {
      const query: string = after === null ? '' : `&after=${encodeURIComponent(after)}`;
      const page = (await this.admin(`/admin/transfers?limit=500${query}`)) as {
        items: MovementView[];
        nextCursor: string | null;
      };
      movements.push(...page.items);
      after = page.nextCursor;
    } while (after !== null);
    return movements;
  }

  private ledgerEntries(): LedgerEntry[] {
    const entries: LedgerEntry[] = [];
    let cursor: number | undefined = 0;
    while (cursor !== undefined && this.bank) {
      const page: LedgerPage = this.bank.ledger.page({ cursor, limit: 1000 });
      entries.push(...page.entries);
      cursor = page.nextCursor;
    }
    return entries;
  }

  private async admin(path: string): Promise<unknown> {
    const response = await fetch(`${this.replicas[0]?.url}${path}`, {
      headers: { authorization: `Bearer ${this.secrets.ADMIN_TOKEN}` },
    });
    if (response.status !== 200) throw new Error(`GET ${path} answered ${response.status}`);
    return response.json();
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
