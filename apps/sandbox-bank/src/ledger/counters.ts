import { FAULT_KINDS, type FaultKind } from '../faults/fault-decision';

export type CountedEndpoint = 'transfer-request' | 'get-movement' | 'oauth-token';

/** What the sandbox saw, for tests and benchmarks to check the client's behaviour. */
export interface SandboxCounters {
  /** Requests by endpoint, then by outcome (`created`, `duplicate`, `found`, `unauthorized`, a fault kind…). */
  requests: Record<string, Record<string, number>>;
  /** Faults fired, by kind; `latency` counts requests that were delayed. */
  faults: Record<FaultKind | 'latency', number>;
  /** originIds processed (movements created). */
  processed: number;
  /** transfer-requests for an originId already processed (answered, never processed again). */
  duplicates: number;
  /** A repeated originId processed again: must stay 0. */
  processedTwice: number;
  /** Lookups sooner than docs/bank-api.md#states-and-polling allows after the previous answer about the movement. */
  pollsTooEarly: number;
  /** Lookups of a movement whose previous answer was already final. */
  pollsAfterFinal: number;
}

function emptyFaults(): SandboxCounters['faults'] {
  const faults = { latency: 0 } as SandboxCounters['faults'];
  for (const kind of FAULT_KINDS) faults[kind] = 0;
  return faults;
}

export class Counters {
  private requests: Record<string, Record<string, number>> = {};
  private faults = emptyFaults();
  processed = 0;
  duplicates = 0;
  processedTwice = 0;
  pollsTooEarly = 0;
  pollsAfterFinal = 0;

  request(endpoint: CountedEndpoint, outcome: string): void {
    const byOutcome = this.requests[endpoint] ?? {};
    this.requests[endpoint] = byOutcome;
    byOutcome[outcome] = (byOutcome[outcome] ?? 0) + 1;
  }

  fault(kind: FaultKind | 'latency'): void {
    this.faults[kind] += 1;
  }

  snapshot(): SandboxCounters {
    return {
      requests: structuredClone(this.requests),
      faults: { ...this.faults },
      processed: this.processed,
      duplicates: this.duplicates,
      processedTwice: this.processedTwice,
      pollsTooEarly: this.pollsTooEarly,
      pollsAfterFinal: this.pollsAfterFinal,
    };
  }

  reset(): void {
    this.requests = {};
    this.faults = emptyFaults();
    this.processed = 0;
    this.duplicates = 0;
    this.processedTwice = 0;
    this.pollsTooEarly = 0;
    this.pollsAfterFinal = 0;
  }
}
