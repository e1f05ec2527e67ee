import { closeSync, existsSync, openSync, readFileSync, writeSync } from 'node:fs';
import type { ScenarioTimings } from '../config/sandbox-config';
import type { AcceptedTransfer } from './movement';
import type { Outcome } from './scenario';

/** What is kept of a movement: what it was asked and when, from which its every state follows. */
export interface JournaledMovement {
  transfer: AcceptedTransfer;
  outcome: Outcome;
  lost: boolean;
  createdAtMs: number;
  timings: ScenarioTimings;
}

/** The ledger as a previous run left it: its id tag and its movements, in processing order. */
export interface JournaledLedger {
  idTag: string;
  movements: JournaledMovement[];
}

/**
 * A file that keeps the ledger across restarts, so a bank that was asked for a transfer still knows it after
 * the process that asked stopped: a first line with the ledger's id tag (its network ids stay the same), then
 * one JSON line per movement, appended before the movement is answered. The lookups and answer fates of a
 * previous run are not kept: they describe that run's traffic, not the bank's movements.
 *
 * A process stopped in the middle of a write leaves a last line cut short: it is skipped (that movement's
 * creation was never answered, as when the bank fails before answering).
 */
export class LedgerJournal {
  private fd: number | undefined;

  constructor(readonly path: string) {}

  /** The ledger the file holds, or undefined when there is none (no file, or an empty one). */
  read(): JournaledLedger | undefined {
    if (!existsSync(this.path)) return undefined;
    const lines = readFileSync(this.path, 'utf8').split('\n');
    const header = parsed(lines[0]) as { idTag?: unknown } | undefined;
    if (typeof header?.idTag !== 'string') return undefined;
    const movements: JournaledMovement[] = [];
    for (const line of lines.slice(1)) {
      const movement = parsed(line) as JournaledMovement | undefined;
      if (movement === undefined) break;
      movements.push(movement);
    }
    return { idTag: header.idTag, movements };
  }

  /** Keeps appending to what the file holds (`read()` was restored). */
  continue(): void {
    this.fd ??= openSync(this.path, 'a');
  }

  /** Starts the file over: a ledger with `idTag` and no movement. */
  restart(idTag: string): void {
    this.close();
    this.fd = openSync(this.path, 'w');
    this.write({ idTag });
  }

  append(movement: JournaledMovement): void {
    this.write(movement);
  }

  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }

  private write(record: unknown): void {
    if (this.fd === undefined) throw new Error(`the sandbox ledger file ${this.path} is not open`);
    writeSync(this.fd, `${JSON.stringify(record)}\n`);
  }
}

function parsed(line: string | undefined): unknown {
  if (line === undefined || line === '') return undefined;
  try {
    return JSON.parse(line);
  } catch {
    return undefined;
  }
}
