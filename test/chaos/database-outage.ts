import { statSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ChaosIntent } from './chaos-intents';
import { type KillableReconciler, readFrom } from './killable-reconciler';

// One database outage in a chaos run, watched from outside as an operator would: while the database is away, a
// new transfer submitted to the admin API is answered 503 with Retry-After (never 500; or stored, when the
// fault lets that write through) and /health/ready goes down on every replica; once it is back, the same
// processes — none restarted — store the refused transfers and report ready again; and their output names the
// cause a few times (once per replica and part), not once per movement or per request.

export interface OutageFault {
  /** What the outage is, for the summary: "connections refused 10 s". */
  label: string;
  /** Takes the database away from giro, and returns once it is away. */
  begin(): Promise<void>;
  /** Gives it back. */
  end(): Promise<void>;
  durationMs: number;
  /** Whether /health/ready must go down: a fault that leaves reads working (a full disk) keeps it up. */
  healthGoesDown: boolean;
  /** Text in a log line that names this cause (the driver's message or code). */
  cause: RegExp;
}

export interface OutageReport {
  label: string;
  /** Probe writes (new transfers) during the outage: answered 503 with Retry-After, stored, anything else. */
  unavailable: number;
  stored: number;
  otherAnswers: string[];
  /** Replicas whose /health/ready said the database was down during the outage, of `replicas`. */
  healthDown: number;
  replicas: number;
  healthGoesDown: boolean;
  /** From the end of the outage until every replica is ready and every probe intent stored; null = never. */
  recoveredMs: number | null;
  /** Output lines naming the cause, from the start of the outage to the recovery. */
  causeLines: number;
  /** The message among them said most often (originIds and request ids aside), and how often. */
  mostRepeated: { message: string; count: number };
  /** How often one message may be said: once per replica, and once more (a group rolled back, then its retry). */
  repeatsAllowed: number;
  /** Whether a replica exited during the outage (it must recover by itself, not by a restart). */
  restarted: boolean;
  /** The last answers to the refused transfers submitted again after the outage (to show when it never recovered). */
  lastRecoveryAnswers: string[];
}

const PROBE_EVERY_MS = 500;
const RECOVERY_BOUND_MS = 30_000;

export interface OutageWatch {
  replicas: KillableReconciler[];
  adminToken: string;
  /**
   * Intents of the run kept for this outage's probe (judged with the others): each probe during the outage
   * submits a new one, a real insert; after it, every one not yet stored is submitted until stored.
   */
  probeIntents: ChaosIntent[];
  logFile: string;
}

/** How many probe intents an outage of `durationMs` needs. */
export function probeIntentsFor(durationMs: number): number {
  return Math.ceil(durationMs / PROBE_EVERY_MS) + 1;
}

export async function runOutage(fault: OutageFault, watch: OutageWatch): Promise<OutageReport> {
  const { replicas, logFile, probeIntents } = watch;
  const offset = statSync(logFile).size;
  const starts = replicas.map((replica) => replica.starts);
  const report: OutageReport = {
    label: fault.label,
    unavailable: 0,
    stored: 0,
    otherAnswers: [],
    healthDown: 0,
    replicas: replicas.length,
    healthGoesDown: fault.healthGoesDown,
    recoveredMs: null,
    causeLines: 0,
    mostRepeated: { message: '', count: 0 },
    repeatsAllowed: 2 * replicas.length,
    restarted: false,
    lastRecoveryAnswers: [],
  };
  const down = new Set<number>();
  const unstored = new Set(probeIntents);
  await fault.begin();
  const until = Date.now() + fault.durationMs;
  for (let round = 0; Date.now() < until && round < probeIntents.length; round++) {
    const intent = probeIntents[round] as ChaosIntent;
    const answer = await submit(replicas[round % replicas.length] as KillableReconciler, intent, watch.adminToken);
    if (answer.status === 503 && answer.retryAfter !== null) report.unavailable += 1;
    else if (answer.status === 201 || answer.status === 200) {
      report.stored += 1;
      unstored.delete(intent);
    } else if (report.otherAnswers.length < 10)
      report.otherAnswers.push(`${answer.status} ${answer.body.slice(0, 200)}`);
    const health = await Promise.all(replicas.map((each) => databaseHealth(each)));
    for (const [index, status] of health.entries()) if (status === 'down') down.add(index);
    await sleep(Math.max(0, Math.min(PROBE_EVERY_MS, until - Date.now())));
  }
  report.healthDown = down.size;
  await fault.end();
  const endedAt = Date.now();
  while (Date.now() - endedAt < RECOVERY_BOUND_MS) {
    const answers = await Promise.all(
      [...unstored].map(async (intent, index) => {
        const answer = await submit(replicas[index % replicas.length] as KillableReconciler, intent, watch.adminToken);
        if (answer.status === 200 || answer.status === 201) unstored.delete(intent);
        return `${answer.status} ${answer.body.slice(0, 120)}`;
      }),
    );
    report.lastRecoveryAnswers = answers.slice(0, 3);
    const ready = await Promise.all(replicas.map((each) => databaseHealth(each)));
    if (unstored.size === 0 && ready.every((status) => status === 'up')) {
      report.recoveredMs = Date.now() - endedAt;
      break;
    }
    await sleep(PROBE_EVERY_MS);
  }
  const causeLines = readFrom(logFile, offset)
    .split('\n')
    .filter((line) => fault.cause.test(line));
  report.causeLines = causeLines.length;
  report.mostRepeated = mostRepeated(causeLines);
  report.restarted = replicas.some((replica, index) => replica.starts !== starts[index] || !replica.running);
  return report;
}

export function judgeOutage(report: OutageReport): string[] {
  const what = `outage "${report.label}"`;
  const violations: string[] = [];
  if (report.unavailable === 0) violations.push(`${what}: no new transfer answered 503 with Retry-After`);
  if (report.otherAnswers.length > 0)
    violations.push(`${what}: admin writes answered ${report.otherAnswers.join(' | ')}`);
  if (report.healthGoesDown && report.healthDown < report.replicas)
    violations.push(`${what}: /health/ready went down on ${report.healthDown} of ${report.replicas} replicas`);
  if (report.recoveredMs === null) {
    violations.push(
      `${what}: not recovered within ${RECOVERY_BOUND_MS / 1000} s; last answers: ${report.lastRecoveryAnswers.join(' | ')}`,
    );
  }
  if (report.restarted) violations.push(`${what}: a replica exited during the outage`);
  if (report.causeLines === 0) violations.push(`${what}: no log line names the cause`);
  if (report.mostRepeated.count > report.repeatsAllowed) {
    const { message, count } = report.mostRepeated;
    violations.push(`${what}: "${message}" said ${count} times (at most ${report.repeatsAllowed}: not per movement)`);
  }
  return violations;
}

export function outageSummary(report: OutageReport): string {
  const recovered = report.recoveredMs === null ? 'never' : `${(report.recoveredMs / 1000).toFixed(1)} s`;
  return (
    `${report.label}: ${report.unavailable} writes 503 (${report.stored} stored), health down on ${report.healthDown}/${report.replicas}, ` +
    `back in ${recovered}, ${report.causeLines} log lines (one message at most ${report.mostRepeated.count} times)`
  );
}

/**
 * Each part of a replica (admin API, sweeps, events, webhooks, audit…) says an outage once with a message of its
 * own; a message said per movement or per request repeats with only its originId or request id changed.
 */
function mostRepeated(lines: string[]): { message: string; count: number } {
  const counts = new Map<string, number>();
  for (const line of lines) {
    let message = line;
    try {
      message = String((JSON.parse(line) as { msg?: unknown }).msg ?? line);
    } catch {
      // Not a JSON line (a stack trace): the line itself is the message.
    }
    const template = message
      .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<id>')
      .replace(/\d+/g, 'N');
    counts.set(template, (counts.get(template) ?? 0) + 1);
  }
  let most = { message: '', count: 0 };
  for (const [message, count] of counts) if (count > most.count) most = { message, count };
  return most;
}

async function submit(replica: KillableReconciler, intent: ChaosIntent, adminToken: string) {
  try {
    const response = await fetch(`${replica.url}/admin/transfers`, {
      method: 'POST',
      headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
      body: intent.body,
      signal: AbortSignal.timeout(10_000),
    });
    return { status: response.status, retryAfter: response.headers.get('retry-after'), body: await response.text() };
  } catch (error) {
    return { status: 0, retryAfter: null, body: (error as Error).message };
  }
}

/** The database's line of /health/ready (the bank's, faulted by the run, is not this outage's business). */
async function databaseHealth(replica: KillableReconciler): Promise<string> {
  try {
    const response = await fetch(`${replica.url}/health/ready`, { signal: AbortSignal.timeout(10_000) });
    const body = (await response.json()) as { details?: { database?: { status?: string } } };
    return body.details?.database?.status ?? `no database line (${response.status})`;
  } catch (error) {
    return (error as Error).message;
  }
}
