import { randomBytes } from 'node:crypto';
import { type BankStatus, type Clock, isFinalStatus } from '@giro/transfer-module';
import type { PollingRules, ScenarioTimings } from '../config/sandbox-config';
import type { AnswerFault } from '../faults/fault-decision';
import type { Counters } from './counters';
import type { LedgerJournal } from './ledger-journal';
import { appendLookup, type LookupAnswer, type LookupRecord, readLookups } from './lookup-log';
import { type AcceptedTransfer, type AnswerFate, Movement } from './movement';
import { type Outcome, scenarioName } from './scenario';
import { StringPool } from './string-pool';

/** The identifiers the sandbox gives a movement. */
export interface MovementIds {
  id: string;
  networkId: string;
  debinId: string;
}

/** One processed originId as the inspection surface shows it. */
export interface LedgerEntry extends MovementIds {
  originId: number;
  scenario: string;
  /** The status now. */
  status: BankStatus;
  createdAt: string;
  /** The states reached so far, with the time each was entered. */
  states: { status: BankStatus; at: string }[];
  /** What became of the creation answer: `delivered`, `lost` (`[lost]`), `reset-after`, `malformed`. */
  creationAnswer: AnswerFate;
  /** transfer-requests repeating this originId (answered, not processed). */
  duplicateRequests: number;
  lookups: LookupRecord[];
}

export interface LedgerPage {
  total: number;
  entries: LedgerEntry[];
  /** Pass as `cursor` for the next page; absent on the last page. */
  nextCursor?: number;
}

/** The read side of the ledger, as the in-process handle exposes it. */
export interface SandboxLedger {
  readonly size: number;
  entry(originId: number): LedgerEntry | undefined;
  page(options?: { cursor?: number; limit?: number }): LedgerPage;
}

export const MAX_LEDGER_PAGE = 1000;
const SEQUENCE_DIGITS = 12;
const DEBIN_PREFIX = 'DEBIN';

/** Every processed originId, in processing order, with the lookups received about it. */
export class Ledger implements SandboxLedger {
  private byOriginId = new Map<number, Movement>();
  private bySequence: Movement[] = [];
  /** Starts every network id, so ids from before a reset (or another run) never resolve to new movements. */
  private idTag = newIdTag();
  private readonly strings = new StringPool();

  /** With a `journal`, the movements it holds are restored and every new one is written to it. */
  constructor(
    private readonly counters: Counters,
    private readonly clock: Clock,
    private readonly journal?: LedgerJournal,
  ) {
    if (journal === undefined) return;
    const previous = journal.read();
    if (previous === undefined) {
      journal.restart(this.idTag);
      return;
    }
    this.idTag = previous.idTag;
    for (const { transfer, outcome, lost, createdAtMs, timings } of previous.movements) {
      this.add(new Movement(this.bySequence.length + 1, this.compact(transfer), outcome, lost, createdAtMs, timings));
    }
    journal.continue();
  }

  get size(): number {
    return this.bySequence.length;
  }

  find(originId: number): Movement | undefined {
    return this.byOriginId.get(originId);
  }

  /** Every processed movement, in processing order. */
  movements(): readonly Movement[] {
    return this.bySequence;
  }

  findByNetworkId(networkId: string): Movement | undefined {
    if (networkId.length !== this.idTag.length + SEQUENCE_DIGITS || !networkId.startsWith(this.idTag)) return undefined;
    const digits = networkId.slice(this.idTag.length);
    if (!/^[0-9]+$/.test(digits)) return undefined;
    return this.bySequence[Number(digits) - 1];
  }

  findByDebinId(debinId: string): Movement | undefined {
    return debinId.startsWith(DEBIN_PREFIX) ? this.findByNetworkId(debinId.slice(DEBIN_PREFIX.length)) : undefined;
  }

  /** Processes a new originId. Callers answer repeats without calling this; a repeat here is a sandbox bug. */
  register(
    transfer: AcceptedTransfer,
    scenario: { outcome: Outcome; lost: boolean },
    nowMs: number,
    timings: ScenarioTimings,
  ): Movement {
    if (this.byOriginId.has(transfer.originId)) {
      this.counters.processedTwice += 1;
      throw new Error(`originId ${transfer.originId} was already processed`);
    }
    const movement = new Movement(
      this.bySequence.length + 1,
      this.compact(transfer),
      scenario.outcome,
      scenario.lost,
      nowMs,
      timings,
    );
    this.journal?.append({
      transfer: movement.transfer,
      outcome: scenario.outcome,
      lost: scenario.lost,
      createdAtMs: nowMs,
      timings,
    });
    this.add(movement);
    this.counters.processed += 1;
    return movement;
  }

  private add(movement: Movement): void {
    this.byOriginId.set(movement.transfer.originId, movement);
    this.bySequence.push(movement);
  }

  private compact(transfer: AcceptedTransfer): AcceptedTransfer {
    const { strings } = this;
    return {
      originId: transfer.originId,
      fromAddress: strings.intern(transfer.fromAddress),
      fromPersonId: strings.intern(transfer.fromPersonId),
      toAddress: strings.intern(transfer.toAddress),
      toPersonId: strings.intern(transfer.toPersonId),
      amount: strings.intern(transfer.amount),
      description: strings.intern(transfer.description),
      concept: strings.intern(transfer.concept),
    };
  }

  /** Records a lookup and audits it against docs/bank-api.md#states-and-polling, before it is answered. */
  recordLookup(
    movement: Movement,
    nowMs: number,
    answered: LookupAnswer,
    rules: PollingRules,
    fault?: AnswerFault,
  ): void {
    const previous = movement.lastAnswerStatus;
    if (previous !== undefined) {
      const sinceMs = nowMs - movement.lastAnswerAtMs;
      if (isFinalStatus(previous)) this.counters.pollsAfterFinal += 1;
      else if (previous === 'DELAYED' ? sinceMs <= rules.delayedMinIntervalMs : sinceMs < rules.minIntervalMs) {
        this.counters.pollsTooEarly += 1;
      }
    }
    movement.lookups = appendLookup(movement.lookups, nowMs, answered, fault);
  }

  /** The client received an answer reporting `status`: the next lookup is timed from here. */
  recordAnswerDelivered(movement: Movement, nowMs: number, status: BankStatus): void {
    movement.lastAnswerAtMs = nowMs;
    movement.lastAnswerStatus = status;
  }

  idsOf(movement: Movement): MovementIds {
    const networkId = `${this.idTag}${String(movement.sequence).padStart(SEQUENCE_DIGITS, '0')}`;
    return { id: `mov-${this.idTag.toLowerCase()}-${movement.sequence}`, networkId, debinId: DEBIN_PREFIX + networkId };
  }

  entry(originId: number): LedgerEntry | undefined {
    const movement = this.byOriginId.get(originId);
    return movement && this.toEntry(movement, this.clock.now().getTime());
  }

  page(options: { cursor?: number; limit?: number } = {}): LedgerPage {
    const cursor = options.cursor ?? 0;
    const limit = Math.min(options.limit ?? 100, MAX_LEDGER_PAGE);
    const nowMs = this.clock.now().getTime();
    const slice = this.bySequence.slice(cursor, cursor + limit);
    const page: LedgerPage = { total: this.size, entries: slice.map((movement) => this.toEntry(movement, nowMs)) };
    if (cursor + limit < this.size) page.nextCursor = cursor + limit;
    return page;
  }

  reset(): void {
    this.byOriginId = new Map();
    this.bySequence = [];
    this.idTag = newIdTag();
    this.journal?.restart(this.idTag);
  }

  /** Closes the journal, when there is one: nothing more is written. */
  close(): void {
    this.journal?.close();
  }

  private toEntry(movement: Movement, nowMs: number): LedgerEntry {
    return {
      originId: movement.transfer.originId,
      ...this.idsOf(movement),
      scenario: scenarioName(movement.outcome, movement.lost),
      status: movement.statusAt(nowMs),
      createdAt: new Date(movement.createdAtMs).toISOString(),
      states: movement
        .stateChanges()
        .filter((change) => change.atMs <= nowMs)
        .map((change) => ({ status: change.status, at: new Date(change.atMs).toISOString() })),
      creationAnswer: movement.creationAnswer,
      duplicateRequests: movement.duplicateRequests,
      lookups: readLookups(movement.lookups ?? []),
    };
  }
}

function newIdTag(): string {
  return randomBytes(3).toString('hex').toUpperCase();
}
