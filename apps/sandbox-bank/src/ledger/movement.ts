import type { BankStatus, DecimalAmount } from '@giro/transfer-module';
import type { ScenarioTimings } from '../config/sandbox-config';
import type { AnswerFault } from '../faults/fault-decision';
import type { Outcome } from './scenario';

/** The validated transfer request, as much of it as the answers need. */
export interface AcceptedTransfer {
  originId: number;
  fromAddress: string;
  fromPersonId: string;
  toAddress: string;
  toPersonId: string;
  amount: DecimalAmount;
  description: string;
  concept: string;
}

/** What became of an answer the sandbox produced. */
export type AnswerFate = 'delivered' | 'lost' | AnswerFault;

export interface StateChange {
  status: BankStatus;
  atMs: number;
}

/**
 * One processed originId. Kept compact (benchmarks hold up to a million): the status is never stored,
 * it is derived from the creation time, the outcome and the timings snapshotted at creation, so no
 * timer runs per movement and a configuration change never rewrites a movement's past.
 */
export class Movement {
  /** Lookups received, as flat pairs `[atMs, code]` (see lookup-log.ts); undefined until the first. */
  lookups: number[] | undefined;
  /** The last answer the client actually received about this movement (creation or lookup). */
  lastAnswerAtMs = Number.NaN;
  lastAnswerStatus: BankStatus | undefined;
  creationAnswer: AnswerFate = 'delivered';
  duplicateRequests = 0;

  constructor(
    readonly sequence: number,
    readonly transfer: AcceptedTransfer,
    readonly outcome: Outcome,
    readonly lost: boolean,
    readonly createdAtMs: number,
    readonly timings: ScenarioTimings,
  ) {}

  statusAt(nowMs: number): BankStatus {
    const changes = this.stateChanges();
    let status = changes[0].status;
    for (const change of changes) {
      if (change.atMs <= nowMs) status = change.status;
    }
    return status;
  }

  /** Every state of the movement's life with the time it is (or will be) entered. */
  stateChanges(): StateChange[] {
    const { createdMs, inProgressMs, delayedMs } = this.timings;
    const inProgressAt = this.createdAtMs + createdMs;
    const settledAt = inProgressAt + inProgressMs;
    const changes: StateChange[] = [
      { status: 'CREATED', atMs: this.createdAtMs },
      { status: 'IN_PROGRESS', atMs: inProgressAt },
    ];
    if (this.outcome === 'fail') changes.push({ status: 'FAILED', atMs: settledAt });
    else if (this.outcome === 'delay') {
      changes.push({ status: 'DELAYED', atMs: settledAt }, { status: 'COMPLETED', atMs: settledAt + delayedMs });
    } else changes.push({ status: 'COMPLETED', atMs: settledAt });
    return changes;
  }

  /** When the movement reached its final state, or undefined if it has not by `nowMs`. */
  finalAtMs(nowMs: number): number | undefined {
    const last = this.stateChanges().at(-1) as StateChange;
    return last.atMs <= nowMs ? last.atMs : undefined;
  }
}
