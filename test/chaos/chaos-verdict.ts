import { FAULT_KINDS, type LedgerEntry, type SandboxCounters } from '@giro/sandbox-bank';
import { type CancellationView, isFinalStatus, type MovementView } from '@giro/transfer-module';
import { type ChaosIntent, SCENARIOS } from './chaos-intents';
import type { DriverReport } from './transfer-driver';

// The contract (ARCHITECTURE.md#the-contract), judged after a chaos run from the outside: what the host submitted,
// what giro stores (its admin API), what the sandbox bank processed (its ledger and counters), and everything the
// reconcilers wrote to their output.

export interface ChaosEvidence {
  intents: ChaosIntent[];
  driver: DriverReport;
  movements: MovementView[];
  cancellations: CancellationView[];
  ledger: LedgerEntry[];
  counters: SandboxCounters;
  /** Epoch ms when the first transfer was submitted. */
  startedAt: number;
  /** Epoch ms when the chaos stopped: every submission answered, every kill restarted, faults off. */
  chaosEndedAt: number;
  /** Every movement must be final within this long of the chaos's end. */
  boundMs: number;
  /** Names of the configured secrets found in the reconcilers' output. */
  secretsInOutput: string[];
  outputBytes: number;
}

export interface ChaosFigures {
  transfers: number;
  lost: number;
  processedTwice: number;
  secondOriginId: number;
  mismatches: number;
  notFinal: number;
  cancellations: number;
  failed: number;
  pollsTooEarly: number;
  anomalies: number;
  refused: number;
  /** Submissions answered 503 with Retry-After (the database out), and with any other 5xx (none expected). */
  unavailable: number;
  serverErrors: number;
  /** Bank faults injected, all kinds. */
  faults: number;
  resubmissions: number;
  /** From the first submission to the last movement becoming final. */
  allFinalMs: number;
  /** From the end of the chaos to the last movement becoming final. */
  afterChaosMs: number;
  boundMs: number;
  secretsInOutput: string[];
  outputBytes: number;
}

export function judgeChaosRun(evidence: ChaosEvidence): { figures: ChaosFigures; violations: string[] } {
  const { intents, driver, movements, cancellations, counters } = evidence;
  const details: string[] = [];
  const note = (what: string) => {
    if (details.length < 15) details.push(what);
  };
  const { lastFinalAt, ...outcomes } = judgeIntents(evidence, note);
  const secondOriginId = countSecondOriginIds(evidence, note);
  const failed = movements.filter((movement) => movement.status === 'FAILED').length;
  const cancellationsMatch = judgeCancellations(movements, cancellations, note);
  for (const refusal of driver.refusals.slice(0, 5)) {
    note(`originId ${refusal.originId} refused with ${refusal.httpStatus}: ${refusal.body}`);
  }
  for (const error of driver.serverErrors.slice(0, 5)) {
    note(`originId ${error.originId} answered ${error.httpStatus}: ${error.body}`);
  }

  const figures: ChaosFigures = {
    transfers: intents.length,
    ...outcomes,
    processedTwice: counters.processedTwice,
    secondOriginId,
    cancellations: cancellations.length,
    failed,
    pollsTooEarly: counters.pollsTooEarly,
    anomalies: movements.reduce((sum, movement) => sum + movement.anomalies.length, 0),
    refused: driver.refusals.length,
    unavailable: driver.unavailable,
    serverErrors: driver.serverErrors.length,
    faults: FAULT_KINDS.reduce((sum, kind) => sum + counters.faults[kind], 0),
    resubmissions: driver.resubmissions,
    allFinalMs: lastFinalAt - evidence.startedAt,
    afterChaosMs: Math.max(0, lastFinalAt - evidence.chaosEndedAt),
    boundMs: evidence.boundMs,
    secretsInOutput: evidence.secretsInOutput,
    outputBytes: evidence.outputBytes,
  };

  const violations: string[] = [];
  const f = figures;
  const mustBeZero = {
    lost: f.lost,
    'processed twice': f.processedTwice,
    'second originId': f.secondOriginId,
    mismatches: f.mismatches,
    'not final': f.notFinal,
    'polls too early': f.pollsTooEarly,
    anomalies: f.anomalies,
    'refused submissions': f.refused,
    'server errors (5xx other than 503)': f.serverErrors,
  };
  for (const [name, value] of Object.entries(mustBeZero))
    if (value !== 0) violations.push(`${name} ${value}, expected 0`);
  if (!cancellationsMatch)
    violations.push(`cancellations ${f.cancellations}, FAILED movements ${f.failed}: not one each`);
  if (f.afterChaosMs > f.boundMs) {
    violations.push(
      `the last movement was final ${seconds(f.afterChaosMs)} s after the chaos (bound ${seconds(f.boundMs)} s)`,
    );
  }
  // A run whose faults never fired would prove nothing about them.
  for (const kind of FAULT_KINDS) if (counters.faults[kind] === 0) violations.push(`the bank never injected ${kind}`);
  if (f.secretsInOutput.length > 0) violations.push(`secrets found in the output: ${f.secretsInOutput.join(', ')}`);
  return { figures, violations: violations.length === 0 ? [] : [...violations, ...details] };
}

/**
 * Each intent: stored by giro, final, and at the bank in the same state — or, for a transfer the bank refused
 * at creation, FAILED with a cancellation without having gone out.
 */
function judgeIntents(evidence: ChaosEvidence, note: (what: string) => void) {
  const giro = new Map(evidence.movements.map((movement) => [movement.originId, movement]));
  const bank = new Map(evidence.ledger.map((entry) => [entry.originId, entry]));
  const outcomes = { lost: 0, mismatches: 0, notFinal: 0, lastFinalAt: evidence.startedAt };
  for (const intent of evidence.intents) {
    const what = `originId ${intent.originId} (${intent.scenario})`;
    const movement = giro.get(intent.originId);
    const entry = bank.get(intent.originId);
    if (movement === undefined) {
      outcomes.lost += 1;
      note(`${what} is not stored by giro`);
      continue;
    }
    if (!isFinalStatus(movement.status)) {
      outcomes.notFinal += 1;
      const { lastError, nextQueryAt, attempts, queries } = movement;
      note(`${what} is still ${movement.status}: ${JSON.stringify({ attempts, queries, nextQueryAt, lastError })}`);
    }
    if (entry === undefined) {
      const refusedByBank = !SCENARIOS[intent.scenario].goesOut;
      if (!refusedByBank || movement.status !== 'FAILED' || movement.cancellation === null) {
        outcomes.lost += 1;
        note(`${what} never reached the bank; giro says ${movement.status}`);
      }
    } else if (movement.status !== entry.status) {
      outcomes.mismatches += 1;
      note(`${what}: giro ${movement.status}, bank ${entry.status}`);
    }
    outcomes.lastFinalAt = Math.max(outcomes.lastFinalAt, finalTime(movement) ?? outcomes.lastFinalAt);
  }
  return outcomes;
}

/**
 * One intent, one originId: giro stores and the bank processed only the originIds the host chose, no two
 * stored movements carry the same intent (its unique description), and giro answered every submission with
 * the originId submitted.
 */
function countSecondOriginIds(evidence: ChaosEvidence, note: (what: string) => void): number {
  const chosen = new Set(evidence.intents.map((intent) => intent.originId));
  const foreign = [
    ...evidence.movements.filter((movement) => !chosen.has(movement.originId)).map((m) => m.originId),
    ...evidence.ledger.filter((entry) => !chosen.has(entry.originId)).map((entry) => entry.originId),
  ];
  for (const originId of foreign) note(`originId ${originId} belongs to no intent`);
  const perDescription = new Map<string, number>();
  for (const { description } of evidence.movements) {
    perDescription.set(description, (perDescription.get(description) ?? 0) + 1);
  }
  const repeated = [...perDescription.values()].reduce((sum, count) => sum + count - 1, 0);
  return foreign.length + repeated + evidence.driver.wrongOriginIds;
}

/** Exactly one cancellation per FAILED movement, and none for any other. */
function judgeCancellations(
  movements: MovementView[],
  cancellations: CancellationView[],
  note: (what: string) => void,
): boolean {
  const status = new Map(movements.map((movement) => [movement.originId, movement.status]));
  const cancelled = new Set(cancellations.map((cancellation) => cancellation.originId));
  let match = cancelled.size === cancellations.length;
  if (!match) note('an originId has more than one cancellation');
  for (const movement of movements) {
    if ((movement.status === 'FAILED') !== cancelled.has(movement.originId)) {
      match = false;
      note(
        `originId ${movement.originId} is ${movement.status} with${cancelled.has(movement.originId) ? '' : 'out'} a cancellation`,
      );
    }
  }
  for (const originId of cancelled) {
    if (!status.has(originId)) {
      match = false;
      note(`a cancellation for originId ${originId}, which giro does not store`);
    }
  }
  return match;
}

/** When the movement reached its final status (its last status change), epoch ms. */
function finalTime(movement: MovementView): number | undefined {
  const last = movement.history.at(-1);
  return last && isFinalStatus(last.to) ? Date.parse(last.at) : undefined;
}

const seconds = (ms: number) => (ms / 1000).toFixed(1);

/** The run's one closing line. */
export function chaosSummary(label: string, kills: number, figures: ChaosFigures): string {
  const f = figures;
  return (
    `chaos ${label}: ${f.transfers} transfers, ${kills} kills, ${f.faults} bank faults, ` +
    `${f.resubmissions} re-submissions (503 ${f.unavailable}, other 5xx ${f.serverErrors}), lost ${f.lost}, ` +
    `processed twice ${f.processedTwice}, second originId ${f.secondOriginId}, mismatches ${f.mismatches}, ` +
    `cancellations ${f.cancellations} ${f.cancellations === f.failed ? '=' : '≠'} failed ${f.failed}, ` +
    `polls too early ${f.pollsTooEarly}, anomalies ${f.anomalies}, not final ${f.notFinal}, ` +
    `all final in ${seconds(f.allFinalMs)} s (${seconds(f.afterChaosMs)} s after the chaos, bound ${seconds(f.boundMs)} s), ` +
    `secrets in ${(f.outputBytes / 1e6).toFixed(1)} MB of output ${f.secretsInOutput.length}`
  );
}
