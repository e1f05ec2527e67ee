/** What happens to a movement after creation, chosen by a tag in `body.description`. */
export type Outcome = 'complete' | 'fail' | 'delay';

export interface Scenario {
  outcome: Outcome;
  /** `[reject]`: a business rejection at creation; nothing is processed. */
  reject: boolean;
  /** `[lost]`: processed, but the creation answer is lost (connection destroyed). */
  lost: boolean;
}

/** Reads the scenario tags of a description. `[fail]` wins over `[delay]`; `[lost]` combines with either. */
export function scenarioOf(description: string): Scenario {
  const text = description.toLowerCase();
  const outcome: Outcome = text.includes('[fail]') ? 'fail' : text.includes('[delay]') ? 'delay' : 'complete';
  return { outcome, reject: text.includes('[reject]'), lost: text.includes('[lost]') };
}

/** The name the ledger shows: `normal`, `fail`, `delay`, `lost`, `fail+lost`, `delay+lost`. */
export function scenarioName(outcome: Outcome, lost: boolean): string {
  const base = outcome === 'complete' ? undefined : outcome;
  if (!lost) return base ?? 'normal';
  return base ? `${base}+lost` : 'lost';
}

/** `[other-payee]`: the bank's answers name another counterparty (another CUIT and its name) than the one asked for. */
export function namesAnotherCounterparty(description: string): boolean {
  return description.toLowerCase().includes('[other-payee]');
}
