import { FAULT_KINDS, type LedgerEntry, type SandboxCounters } from '@giro/sandbox-bank';
import { type CancellationView, isFinalStatus, type MovementView } from '@giro/transfer-module';
import { type ChaosIntent, SCENARIOS } from './chaos-intents';
import type { DriverReport } from './transfer-driver';

// The contract of DESIGN.md, judged after a chaos run from the outside: what the host submitted, what giro
// stores (its admin API), what the sandbox bank processed (its ledger and counters), and everything the
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
  /** Bank faults injected, all kinds. */
  faults: number;
  /** From the first submission to the last movement becoming final. */
  allFinalMs: number;
  /** From the end of the chaos to the last movement becoming final. */
  afterChaosMs: number;
  boundMs: number;
  secretsInOutput: string[];
  outputBytes: number;
}

export function judgeChaosRun(evidence: ChaosEvidence): { figures: ChaosFigures; violations: string[] } {
  const { intents, driver, movements, cancellations, ledger, counters } = evidence;
  const violations: string[] = [];
  const note = (what: string) => {
    if (violations.length < 20) violations.push(what);
  };
  const giro = new Map(movements.map((movement) => [movement.originId, movement]));
  const bank = new Map(ledger.map((entry) => [entry.originId, entry]));
  const intentOriginIds = new Set(intents.map((intent) => intent.originId));

  let lost = 0;
  let mismatches = 0;
  let notFinal = 0;
  let lastFinalAt = evidence.startedAt;
  for (const intent of intents) {
    const movement = giro.get(intent.originId);
    const entry = bank.get(intent.originId);
    if (movement === undefined) {
      lost += 1;
      note(`originId ${intent.originId} (${intent.scenario}) is not stored by giro`);
      continue;
    }
    if (!isFinalStatus(movement.status)) {
      notFinal += 1;
      note(`originId ${intent.originId} (${intent.scenario}) is still ${movement.status}`);
    }
    if (entry === undefined) {
      // Only a transfer the bank refused at creation may end without having gone out: FAILED, cancelled.
      const refusedByBank = !SCENARIOS[intent.scenario].goesOut;
      if (!refusedByBank || movement.status !== 'FAILED' || movement.cancellation === null) {
        lost += 1;
        note(`originId ${intent.originId} (${intent.scenario}) never reached the bank; giro says ${movement.status}`);
      }
    } else if (movement.status !== entry.status) {
      mismatches += 1;
      note(`originId ${intent.originId} (${intent.scenario}): giro ${movement.status}, bank ${entry.status}`);
    }
    lastFinalAt = Math.max(lastFinalAt, finalTime(movement) ?? lastFinalAt);
  }

  // One intent, one originId: giro stores and the bank processed only the originIds the host chose, and no
  // two stored movements carry the same intent (its unique description).
  const foreign = [
    ...movements.filter((movement) => !intentOriginIds.has(movement.originId)).map((m) => m.originId),
    ...ledger.filter((entry) => !intentOriginIds.has(entry.originId)).map((entry) => entry.originId),
  ];
  for (const originId of foreign) note(`originId ${originId} belongs to no intent`);
  const originIdsByDescription = new Map<string, number>();
  for (const movement of movements) {
    originIdsByDescription.set(movement.description, (originIdsByDescription.get(movement.description) ?? 0) + 1);
  }
  const repeatedIntents = [...originIdsByDescription.values()].reduce((sum, count) => sum + count - 1, 0);
  const secondOriginId = foreign.length + repeatedIntents + driver.wrongOriginIds;

  const failed = movements.filter((movement) => movement.status === 'FAILED');
  const cancelled = new Set(cancellations.map((cancellation) => cancellation.originId));
  if (cancelled.size !== cancellations.length) note('an originId has more than one cancellation');
  for (const movement of failed) {
    if (!cancelled.has(movement.originId)) note(`originId ${movement.originId} is FAILED without a cancellation`);
  }
  for (const originId of cancelled) {
    if (giro.get(originId)?.status !== 'FAILED') note(`originId ${originId} has a cancellation but is not FAILED`);
  }
  const anomalies = movements.reduce((sum, movement) => sum + movement.anomalies.length, 0);

  const figures: ChaosFigures = {
    transfers: intents.length,
    lost,
    processedTwice: counters.processedTwice,
    secondOriginId,
    mismatches,
    notFinal,
    cancellations: cancellations.length,
    failed: failed.length,
    pollsTooEarly: counters.pollsTooEarly,
    anomalies,
    refused: driver.refusals.length,
    faults: FAULT_KINDS.reduce((sum, kind) => sum + counters.faults[kind], 0),
    allFinalMs: lastFinalAt - evidence.startedAt,
    afterChaosMs: Math.max(0, lastFinalAt - evidence.chaosEndedAt),
    boundMs: evidence.boundMs,
    secretsInOutput: evidence.secretsInOutput,
    outputBytes: evidence.outputBytes,
  };
  for (const refusal of driver.refusals.slice(0, 5)) {
    note(`originId ${refusal.originId} refused with ${refusal.httpStatus}: ${refusal.body}`);
  }
  const expectZero = {
    lost,
    processedTwice: counters.processedTwice,
    secondOriginId,
    mismatches,
    notFinal,
    pollsTooEarly: counters.pollsTooEarly,
    anomalies,
    refused: driver.refusals.length,
  };
  for (const [name, value] of Object.entries(expectZero)) if (value !== 0) note(`${name} ${value}, expected 0`);
  if (cancellations.length !== failed.length || cancellations.length !== cancelled.size) {
    note(`cancellations ${cancellations.length} ≠ failed ${failed.length}`);
  }
  if (figures.afterChaosMs > evidence.boundMs) {
    note(
      `the last movement was final ${seconds(figures.afterChaosMs)} s after the chaos (bound ${seconds(evidence.boundMs)} s)`,
    );
  }
  // A run whose faults never fired would prove nothing about them.
  for (const kind of FAULT_KINDS) if (counters.faults[kind] === 0) note(`the bank never injected ${kind}`);
  if (evidence.secretsInOutput.length > 0)
    note(`secrets in the reconcilers' output: ${evidence.secretsInOutput.join(', ')}`);
  return { figures, violations };
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
    `chaos ${label}: ${f.transfers} transfers, ${kills} kills, ${f.faults} bank faults, lost ${f.lost}, ` +
    `processed twice ${f.processedTwice}, second originId ${f.secondOriginId}, mismatches ${f.mismatches}, ` +
    `cancellations ${f.cancellations} ${f.cancellations === f.failed ? '=' : '≠'} failed ${f.failed}, ` +
    `polls too early ${f.pollsTooEarly}, anomalies ${f.anomalies}, not final ${f.notFinal}, ` +
    `all final in ${seconds(f.allFinalMs)} s (${seconds(f.afterChaosMs)} s after the chaos, bound ${seconds(f.boundMs)} s), ` +
    `secrets in ${(f.outputBytes / 1e6).toFixed(1)} MB of output ${f.secretsInOutput.length}`
  );
}
