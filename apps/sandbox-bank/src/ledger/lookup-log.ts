import { BANK_STATUSES, type BankStatus } from '@giro/transfer-module';
import { type AnswerFault, FAULT_KINDS } from '../faults/fault-decision';

/** What a lookup was answered: the movement's status, or not found (not registered yet). */
export type LookupAnswer = BankStatus | 'NOT_FOUND';

export interface LookupRecord {
  at: string;
  answered: LookupAnswer;
  /** Set when the answer never reached the client intact. */
  fault?: AnswerFault;
}

const ANSWERS: readonly LookupAnswer[] = [...BANK_STATUSES, 'NOT_FOUND'];
const FAULT_FACTOR = 16;
const EXACT_SIZE_LIMIT = 32;

/**
 * Lookups are stored as flat number pairs `[atMs, code]` rather than objects: a benchmark may record
 * millions. `code` packs the answer (index in ANSWERS) and the fault (index in FAULT_KINDS + 1).
 * Returns the log to keep: short logs are copied at their exact size (a growing array reserves room
 * for 16 more elements, which would double the size of most movements).
 */
export function appendLookup(
  log: number[] | undefined,
  atMs: number,
  answered: LookupAnswer,
  fault?: AnswerFault,
): number[] {
  const faultCode = fault === undefined ? 0 : FAULT_KINDS.indexOf(fault) + 1;
  const code = ANSWERS.indexOf(answered) + FAULT_FACTOR * faultCode;
  if (log === undefined) return [atMs, code];
  if (log.length >= EXACT_SIZE_LIMIT) {
    log.push(atMs, code);
    return log;
  }
  return log.concat(atMs, code);
}

export function readLookups(log: readonly number[]): LookupRecord[] {
  const records: LookupRecord[] = [];
  for (let i = 0; i < log.length; i += 2) {
    const code = log[i + 1];
    const record: LookupRecord = { at: new Date(log[i]).toISOString(), answered: ANSWERS[code % FAULT_FACTOR] };
    const faultCode = Math.floor(code / FAULT_FACTOR);
    if (faultCode > 0) record.fault = FAULT_KINDS[faultCode - 1] as AnswerFault;
    records.push(record);
  }
  return records;
}
