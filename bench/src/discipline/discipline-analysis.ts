import type { LedgerEntry } from '@giro/sandbox-bank';
import { percentile } from '../stats';

/** The polling rules the run used (scaled): the sandbox audits the same figures. */
export interface PollingRules {
  minIntervalMs: number;
  delayedMinIntervalMs: number;
}

/** What the sandbox's ledger says about a client's polling, against the rules. */
export interface DisciplineFigures {
  movements: number;
  /** Movements not final yet (should be 0 at the end of a run); left out of the query counts. */
  unsettled: number;
  /** Lookups of the final movements. */
  queries: number;
  /** What a client polling exactly as soon as the rules allow would have needed to see every final state. */
  minimumQueries: number;
  queriesOverMinimum: number;
  /** State changes out of CREATED / IN_PROGRESS: from the change to the first lookup that could see it. */
  lagP50Ms: number;
  lagP99Ms: number;
  lagP99OverInterval: number;
  /** State changes out of DELAYED, governed by the longer interval. */
  delayedLagP50Ms: number;
  delayedLagP99Ms: number;
  /** Changes no lookup came after (a movement left unfinished). */
  undetectedChanges: number;
}

type State = LedgerEntry['states'][number];

const FINAL = new Set(['COMPLETED', 'FAILED']);

export function analyzeDiscipline(entries: readonly LedgerEntry[], rules: PollingRules): DisciplineFigures {
  let queries = 0;
  let minimumQueries = 0;
  let unsettled = 0;
  let undetectedChanges = 0;
  const lags: number[] = [];
  const delayedLags: number[] = [];
  for (const entry of entries) {
    const states = entry.states.map((state) => ({ status: state.status, atMs: Date.parse(state.at) }));
    const lookups = entry.lookups.map((lookup) => ({ atMs: Date.parse(lookup.at), answered: lookup.answered }));
    if (FINAL.has(states[states.length - 1].status)) {
      queries += lookups.length;
      minimumQueries += minimumLookups(states, rules);
    } else unsettled += 1;
    for (let index = 1; index < states.length; index++) {
      const change = states[index];
      const seenBy = lookups.find((lookup) => lookup.atMs >= change.atMs);
      if (!seenBy) {
        undetectedChanges += 1;
        continue;
      }
      (states[index - 1].status === 'DELAYED' ? delayedLags : lags).push(seenBy.atMs - change.atMs);
    }
  }
  const lagP99Ms = percentile(lags, 0.99);
  return {
    movements: entries.length,
    unsettled,
    queries,
    minimumQueries,
    queriesOverMinimum: queries / minimumQueries,
    lagP50Ms: percentile(lags, 0.5),
    lagP99Ms,
    lagP99OverInterval: lagP99Ms / rules.minIntervalMs,
    delayedLagP50Ms: percentile(delayedLags, 0.5),
    delayedLagP99Ms: percentile(delayedLags, 0.99),
    undetectedChanges,
  };
}

/**
 * The fewest lookups that see the final state while keeping the rules: the first right after the creation
 * answer allows it, each next one as soon as the previous answer allows it (the minimum interval after
 * CREATED / IN_PROGRESS, strictly more than the DELAYED interval after DELAYED), until one answers a final
 * state. A movement final at creation needs none. Only for a movement whose final state is known.
 */
export function minimumLookups(
  states: readonly { status: State['status']; atMs: number }[],
  rules: PollingRules,
): number {
  if (!FINAL.has(states[states.length - 1].status)) throw new Error('the movement has not reached a final state');
  const statusAt = (atMs: number) => states.filter((state) => state.atMs <= atMs).at(-1)?.status ?? states[0].status;
  let atMs = states[0].atMs;
  let status = statusAt(atMs);
  let lookups = 0;
  while (!FINAL.has(status)) {
    atMs += status === 'DELAYED' ? rules.delayedMinIntervalMs + 1 : rules.minIntervalMs;
    status = statusAt(atMs);
    lookups += 1;
  }
  return lookups;
}
